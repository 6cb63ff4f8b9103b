package dev.outlierlab.check;

import dev.outlierlab.engine.profile.Profiles;
import java.util.ArrayList;
import java.util.List;

/**
 * A check {@code outlier-lab check} makes: a stable id (SARIF's {@code ruleId} and JSON's; never renamed), a usual
 * severity, a title and a help text saying which rule of the real implementation it follows. The lab's own are
 * {@link #lab()}; a profile contributes its own through its {@link CheckRules} facet.
 */
public interface CheckRule {
    /**
     * What a rule says, held by each constant of an enum of rules.
     *
     * @param defaultSeverity the usual severity (a finding may be milder, e.g. a blind spot another detector covers)
     * @param id              the stable id, e.g. {@code cap-admits-no-host}
     * @param title           one line
     * @param help            what the rule means and why, for SARIF and the docs
     */
    record Text(Severity defaultSeverity, String id, String title, String help) {}

    /** The rule's text. */
    Text text();

    /** The stable id, e.g. {@code cap-admits-no-host}. */
    default String id() {
        return text().id();
    }

    /** The usual severity (a finding may be milder, e.g. a blind spot another detector covers). */
    default Severity defaultSeverity() {
        return text().defaultSeverity();
    }

    default String title() {
        return text().title();
    }

    default String help() {
        return text().help();
    }

    /**
     * The lab's own rules in their order: an Envoy cluster's and the file's ({@link Rule}), a gateway's
     * ({@link GatewayRule}), a gRPC client's ({@link GrpcRule}), a web server's ({@link ServerRule}).
     */
    static List<CheckRule> lab() {
        List<CheckRule> out = new ArrayList<>(List.of(Rule.values()));
        out.addAll(List.of(GatewayRule.values()));
        out.addAll(List.of(GrpcRule.values()));
        out.addAll(List.of(ServerRule.values()));
        return List.copyOf(out);
    }

    /** Every rule: the lab's own in their order, then each profile's, in the registry's order. */
    static List<CheckRule> all() {
        List<CheckRule> out = new ArrayList<>(lab());
        for (Profiles.Registered p : Profiles.withFacet(CheckRules.class)) {
            out.addAll(p.facet(CheckRules.class).orElseThrow().rules());
        }
        return out;
    }
}
