package dev.outlierlab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A run's final {@code cluster.<name>.outlier_detection.*} statistics as Envoy's admin interface prints them:
 * {@code /stats} ({@code name: value} lines, sorted by name) and {@code /stats/prometheus} (tag-extracted names
 * {@code envoy_cluster_outlier_detection_*} with the {@code envoy_cluster_name} label, counters then the
 * {@code ejections_active} gauge, each with its {@code # TYPE} line). The cluster's name is sanitized as
 * {@code Stats::Utility::sanitizeStatsName} does ({@code ://}, {@code :/} and {@code :} become {@code _}), and the
 * Prometheus tag is Envoy's default {@code cluster.$.**} extractor ({@code source/common/config/well_known_names.cc}):
 * the label takes the first dot-separated token and the rest stays in the metric's name, so {@code reviews.default}
 * gives {@code envoy_cluster_default_outlier_detection_*{envoy_cluster_name="reviews"}}.
 */
public final class EnvoyStats {
    private static final String GAUGE = "ejections_active";

    private EnvoyStats() {}

    /** {@code /stats}: one {@code cluster.NAME.outlier_detection.X: value} line per statistic, sorted by name. */
    public static String text(Map<String, Long> stats, String cluster) {
        String prefix = "cluster." + sanitizeStatsName(cluster) + ".outlier_detection.";
        Map<String, Long> sorted = new TreeMap<>();
        stats.forEach((name, value) -> sorted.put(prefix + name, value));
        StringBuilder out = new StringBuilder();
        sorted.forEach(
                (name, value) -> out.append(name).append(": ").append(value).append('\n'));
        return out.toString();
    }

    /** {@code /stats/prometheus}: counters, then the gauge, each sorted by name. */
    public static String prometheus(Map<String, Long> stats, String cluster) {
        List<String> counters = new ArrayList<>(new TreeMap<>(stats).keySet());
        counters.remove(GAUGE);
        String sanitized = sanitizeStatsName(cluster);
        int dot = sanitized.indexOf('.');
        String tag = dot < 0 ? sanitized : sanitized.substring(0, dot);
        String rest = dot < 0 ? "" : sanitized.substring(dot + 1) + ".";
        String base = promName("envoy_cluster." + rest + "outlier_detection.");
        String label = "{envoy_cluster_name=\""
                + tag.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"}";
        StringBuilder out = new StringBuilder();
        for (String name : counters) {
            metric(out, base + name, "counter", label, stats.get(name));
        }
        if (stats.containsKey(GAUGE)) {
            metric(out, base + GAUGE, "gauge", label, stats.get(GAUGE));
        }
        return out.toString();
    }

    /**
     * Envoy's {@code Stats::Utility::sanitizeStatsName}: one leading and one trailing dot dropped, then {@code ://},
     * {@code :/} and {@code :} (and NUL) replaced by {@code _}.
     */
    static String sanitizeStatsName(String name) {
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        n = n.startsWith(".") ? n.substring(1) : n;
        StringBuilder out = new StringBuilder(n.length());
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c == ':') {
                out.append('_');
                if (n.startsWith("//", i + 1)) {
                    i += 2;
                } else if (n.startsWith("/", i + 1)) {
                    i += 1;
                }
            } else {
                out.append(c == '\0' ? '_' : c);
            }
        }
        return out.toString();
    }

    /** The Prometheus formatter's {@code sanitizeName}: every character but letters, digits and {@code _} becomes {@code _}. */
    private static String promName(String name) {
        StringBuilder out = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            out.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
        }
        return out.toString();
    }

    private static void metric(StringBuilder out, String full, String type, String label, long value) {
        out.append("# TYPE ")
                .append(full)
                .append(' ')
                .append(type)
                .append('\n')
                .append(full)
                .append(label)
                .append(' ')
                .append(value)
                .append('\n');
    }
}
