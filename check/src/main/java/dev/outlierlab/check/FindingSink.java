package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Collects one cluster's findings, rendering each fix in the file's own dialect. A finding whose rule depends on
 * the Envoy release ({@link #VERSIONED}) says which release it assumes.
 */
final class FindingSink {
    /** Rules whose arithmetic or behaviour differs between Envoy releases. */
    static final Set<Rule> VERSIONED = EnumSet.of(
            Rule.CAP_ADMITS_NO_HOST,
            Rule.CAP_ADMITS_NO_HOST_BELOW,
            Rule.CAP_ALLOWS_PANIC,
            Rule.PANIC_DISABLED_EJECT_ALL,
            Rule.HEALTH_CHECK_RETURNS_EJECTED);

    private final CheckTarget target;
    private final EnvoyVersion version;
    private final int clients;
    private final List<Finding> findings = new ArrayList<>();

    FindingSink(CheckTarget target, EnvoyVersion version) {
        this(target, version, 1);
    }

    /** @param clients the callers sharing the traffic, each its own detector ({@code --clients}) */
    FindingSink(CheckTarget target, EnvoyVersion version, int clients) {
        this.target = target;
        this.version = version;
        this.clients = clients;
    }

    /** How many callers share the traffic, each with its own detector (1: one detector sees all). */
    int clients() {
        return clients;
    }

    CheckTarget target() {
        return target;
    }

    /** The Envoy release the findings assume. */
    EnvoyVersion version() {
        return version;
    }

    List<Finding> findings() {
        return List.copyOf(findings);
    }

    void add(
            CheckRule rule,
            Severity severity,
            String message,
            Map<String, Object> numbers,
            List<FixStyle.Change> fix,
            int line) {
        String snippet = fix == null || fix.isEmpty() ? null : target.style().render(fix);
        String said = VERSIONED.contains(rule) ? message + " (assumes Envoy " + version + ")" : message;
        findings.add(
                new Finding(rule, severity, target.name(), said, numbers, snippet, target.file(), line, List.of()));
    }

    static double round(double d) {
        return Math.round(d * 100.0) / 100.0;
    }

    static String fmt(double d) {
        if (d == Math.rint(d)) {
            return Long.toString((long) d);
        }
        return String.format(Locale.ROOT, "%.1f", d);
    }
}
