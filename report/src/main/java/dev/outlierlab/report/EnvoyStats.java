package dev.outlierlab.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A run's final {@code cluster.<name>.outlier_detection.*} statistics as Envoy's admin interface prints them:
 * {@code /stats} ({@code name: value} lines, sorted by name) and {@code /stats/prometheus} (tag-extracted names
 * {@code envoy_cluster_outlier_detection_*} with the {@code envoy_cluster_name} label, counters then the
 * {@code ejections_active} gauge, each with its {@code # TYPE} line).
 */
public final class EnvoyStats {
    private static final String GAUGE = "ejections_active";

    private EnvoyStats() {
    }

    /** {@code /stats}: one {@code cluster.NAME.outlier_detection.X: value} line per statistic, sorted by name. */
    public static String text(Map<String, Long> stats, String cluster) {
        Map<String, Long> sorted = new TreeMap<>();
        stats.forEach((name, value) -> sorted.put("cluster." + cluster + ".outlier_detection." + name, value));
        StringBuilder out = new StringBuilder();
        sorted.forEach((name, value) -> out.append(name).append(": ").append(value).append('\n'));
        return out.toString();
    }

    /** {@code /stats/prometheus}: counters, then the gauge, each sorted by name. */
    public static String prometheus(Map<String, Long> stats, String cluster) {
        List<String> counters = new ArrayList<>(new TreeMap<>(stats).keySet());
        counters.remove(GAUGE);
        String label = "{envoy_cluster_name=\"" + cluster.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}";
        StringBuilder out = new StringBuilder();
        for (String name : counters) {
            metric(out, name, "counter", label, stats.get(name));
        }
        if (stats.containsKey(GAUGE)) {
            metric(out, GAUGE, "gauge", label, stats.get(GAUGE));
        }
        return out.toString();
    }

    private static void metric(StringBuilder out, String name, String type, String label, long value) {
        String full = "envoy_cluster_outlier_detection_" + name;
        out.append("# TYPE ").append(full).append(' ').append(type).append('\n')
                .append(full).append(label).append(' ').append(value).append('\n');
    }
}
