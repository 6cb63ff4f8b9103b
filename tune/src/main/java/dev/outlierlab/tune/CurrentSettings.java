package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.FixStyle;
import dev.outlierlab.check.GatewayTargets;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.grpc.ServiceConfigReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The settings {@code tune} starts from, read from what {@code --from} names: anything {@code check} reads (an Envoy
 * cluster or config dump, an Istio DestinationRule, an Envoy Gateway BackendTrafficPolicy, a Kuma MeshCircuitBreaker,
 * a gateway configuration) through {@link CheckInputs}, a gRPC service config through {@link ServiceConfigReader}, or
 * a lab scenario of any profile through {@link ScenarioReader}; with no file, Envoy's defaults for an Envoy cluster.
 * The file says the target, and may say the hosts (endpoints, a ServiceEntry, a scenario's cluster), the rate (a
 * scenario's traffic) and an active health check (an Envoy cluster's or a scenario's {@code health_checks}).
 *
 * @param hosts        the hosts the file gives, or null
 * @param rps          the rate the file gives (a scenario), or null
 * @param version      the Envoy release the file names (a scenario's {@code envoy_version}), or null
 * @param profile      the profile these settings run under: gRPC's or the gateway's own settings, else Envoy's
 * @param healthChecks the file's active health check, or null
 */
public record CurrentSettings(
        String name,
        String source,
        Target target,
        OutlierDetectionConfig config,
        double panicThresholdPercent,
        Integer hosts,
        Long rps,
        EnvoyVersion version,
        RunProfile profile,
        HealthCheckSpec healthChecks) {

    private static final Pattern SCENARIO =
            Pattern.compile("(?m)^(traffic|faults|duration|seed|envoy_version|profile)\\s*:");

    public CurrentSettings(
            String name,
            String source,
            Target target,
            OutlierDetectionConfig config,
            double panicThresholdPercent,
            Integer hosts,
            Long rps,
            EnvoyVersion version) {
        this(name, source, target, config, panicThresholdPercent, hosts, rps, version, RunProfile.ENVOY, null);
    }

    /** Envoy's defaults for an Envoy cluster named {@code name}, with the default panic threshold. */
    public static CurrentSettings defaults(String name) {
        return new CurrentSettings(
                name, null, EnvoyTarget.ENVOY, OutlierDetectionConfig.defaults(), 50, null, null, null);
    }

    /**
     * With no file, for a target: its defaults as it takes them ({@link Target#defaults}; Envoy's default values
     * written as that target's resource and read back, so Istio's success rate is off and its panic threshold 0, as
     * istiod sends them; a profile with settings of its own, its own defaults).
     */
    public static CurrentSettings defaults(String name, Target target, int hosts) {
        return target.defaults(name, hosts);
    }

    /** Reads a file's text; {@code source} names it in messages. */
    public static CurrentSettings read(String text, String source) {
        return read(text, source, null);
    }

    /**
     * {@link #read(String, String)} of the part named {@code part} of a file that has parts (an nginx upstream, a
     * HAProxy backend); null for the only one.
     */
    public static CurrentSettings read(String text, String source, String part) {
        if (text.lines().allMatch(l -> l.isBlank() || l.strip().startsWith("#"))) {
            throw new InputException(source + ": the file is empty; tune --from takes " + takes());
        }
        for (Target t : Target.all()) {
            CurrentSettings own = t.readOwn(text, source, part);
            if (own != null) {
                return own;
            }
        }
        if (part != null) {
            throw new InputException(
                    "--upstream " + Wording.printable(shortPart(part)) + ": names an nginx upstream or a HAProxy "
                            + "backend; " + source + " is neither an nginx.conf nor a haproxy.cfg");
        }
        if (SCENARIO.matcher(text).find() && !GatewayTargets.hasGatewaySection(text)) {
            ScenarioReader.Profiled p = ScenarioReader.readProfiled(text, source, List.of());
            return p.profile()
                    .facet(TuneFrom.class)
                    .orElseThrow(() -> new InputException(source + ": a profile: " + p.name()
                            + " scenario; tune --from takes " + Profiles.namesWith(TuneFrom.class) + " scenarios"))
                    .current(p, source);
        }
        CheckInputs.Loaded loaded = CheckInputs.read(text, source, null, false);
        List<CheckTarget> targets = new ArrayList<>();
        for (CheckTarget t : loaded.targets()) {
            if (t.config() != null || t.gateway() != null) {
                targets.add(t);
            }
        }
        if (targets.isEmpty()) {
            throw new InputException(source + ": no cluster with outlier detection to tune here"
                    + (loaded.targets().isEmpty()
                            ? ""
                            : " (the settings found are rejected: run outlier-lab check " + source + ")"));
        }
        if (targets.size() > 1 && sameSettings(targets)) {
            // a DestinationRule's subsets without their own outlierDetection inherit the rule's: one setting to tune
            targets = List.of(targets.get(0));
        }
        if (targets.size() > 1) {
            List<String> names = targets.stream().map(CheckTarget::name).toList();
            FixStyle style = targets.get(0).style();
            String choose = style == FixStyle.ISTIO
                    ? "choose one with tune --istio " + source + " --subset NAME (--port N, --cluster RULE)"
                    : style == FixStyle.ENVOY
                            ? "choose one with tune --envoy " + source + " --cluster NAME"
                            : "split the file";
            throw new InputException(source + ": " + targets.size() + " clusters with outlier detection; tune one at a "
                    + "time (" + choose + "): " + String.join(", ", names.subList(0, Math.min(6, names.size())))
                    + (names.size() > 6 ? ", ..." : ""));
        }
        CheckTarget t = targets.get(0);
        Target target = Target.byStyle(t.style());
        if (target == null) {
            throw new InputException(source + ": " + t.style().translatedBy()
                    + " translates these settings; tune writes "
                    + andList(Target.all().stream().map(Target::description).toList()) + " only");
        }
        return target.read(t, source);
    }

    /**
     * These settings as {@code target} would take them: the same for another Envoy target (the file is rewritten in
     * that target's format), an Envoy cluster's outlier detection as gRPC's xDS client maps it for gRPC (what gRPC
     * ignores goes to {@code notes}); a gRPC service config or a gateway configuration only for its own target.
     */
    public CurrentSettings asTarget(Target t, List<String> notes) {
        if (t == target) {
            return this;
        }
        CurrentSettings adopted = t.adopt(this, notes);
        if (adopted != null) {
            return adopted;
        }
        throw new InputException("--target " + t.flag() + ": " + (source == null ? "the current settings" : source)
                + " is " + target.description() + "; tune it with --target " + target.flag() + t.ownSettingsHint());
    }

    /** Whether every target has the same kind, outlier settings and panic threshold (subsets inheriting a rule's). */
    private static boolean sameSettings(List<CheckTarget> targets) {
        CheckTarget first = targets.get(0);
        for (CheckTarget t : targets) {
            if (t.style() != first.style()
                    || t.gateway() != null
                    || t.config() == null
                    || !t.config().equals(first.config())
                    || t.panicThresholdPercent() != first.panicThresholdPercent()) {
                return false;
            }
        }
        return true;
    }

    private static String shortPart(String part) {
        return part.length() > 40 ? part.substring(0, 40) + "..." : part;
    }

    /**
     * What {@code --from} takes, from the registry: every target's file ({@link TuneTargets}) and the profiles whose
     * scenarios give settings ({@link TuneFrom}).
     */
    static String takes() {
        List<String> files =
                new ArrayList<>(Target.all().stream().map(Target::description).toList());
        files.add("a lab scenario (profile: " + Profiles.namesWith(TuneFrom.class) + ")");
        return Profiles.orList(files);
    }

    /** {@code a, b and c}. */
    private static String andList(List<String> items) {
        return items.size() < 2
                ? String.join("", items)
                : String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }
}
