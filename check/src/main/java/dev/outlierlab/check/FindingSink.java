package dev.outlierlab.check;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Collects one cluster's findings, rendering each fix in the file's own dialect. */
final class FindingSink {
    private final CheckTarget target;
    private final List<Finding> findings = new ArrayList<>();

    FindingSink(CheckTarget target) {
        this.target = target;
    }

    CheckTarget target() {
        return target;
    }

    List<Finding> findings() {
        return List.copyOf(findings);
    }

    void add(Rule rule, Severity severity, String message, Map<String, Object> numbers,
                     List<FixStyle.Change> fix, int line) {
        String snippet = fix == null || fix.isEmpty() ? null : target.style().render(fix);
        findings.add(new Finding(rule, severity, target.name(), message, numbers, snippet, target.file(), line,
                List.of()));
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
