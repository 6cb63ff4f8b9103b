package dev.outlierlab.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a suggested change as a YAML snippet in the dialect of the file it is for: Envoy field names under
 * {@code outlier_detection} and {@code common_lb_config}, or Istio's under
 * {@code trafficPolicy.outlierDetection} (where an Envoy field has no Istio equivalent, the snippet says so).
 */
public enum FixStyle {
    ENVOY, ISTIO;

    /** One field to set: an Envoy path such as {@code outlier_detection.max_ejection_percent}, a value, a comment. */
    public record Change(String envoyPath, Object value, String comment) {
        public Change(String envoyPath, Object value) {
            this(envoyPath, value, null);
        }
    }

    /** Envoy fields a DestinationRule can set, and their Istio names. */
    private static final Map<String, String> ISTIO_NAMES = Map.of(
            "outlier_detection.consecutive_5xx", "consecutive5xxErrors",
            "outlier_detection.consecutive_gateway_failure", "consecutiveGatewayErrors",
            "outlier_detection.enforcing_consecutive_gateway_failure", "consecutiveGatewayErrors",
            "outlier_detection.interval", "interval",
            "outlier_detection.base_ejection_time", "baseEjectionTime",
            "outlier_detection.max_ejection_percent", "maxEjectionPercent",
            "outlier_detection.split_external_local_origin_errors", "splitExternalLocalOriginErrors",
            "outlier_detection.consecutive_local_origin_failure", "consecutiveLocalOriginFailures",
            "common_lb_config.healthy_panic_threshold", "minHealthPercent");

    /** The snippet, or null when nothing in it can be expressed in this dialect. */
    public String render(List<Change> changes) {
        return this == ENVOY ? envoy(changes) : istio(changes);
    }

    private static String envoy(List<Change> changes) {
        Map<String, List<String>> blocks = new LinkedHashMap<>();
        for (Change c : changes) {
            int dot = c.envoyPath().indexOf('.');
            String block = c.envoyPath().substring(0, dot);
            String field = c.envoyPath().substring(dot + 1);
            String line = field.equals("healthy_panic_threshold")
                    ? "  healthy_panic_threshold:\n    value: " + c.value() + comment(c)
                    : "  " + field + ": " + c.value() + comment(c);
            blocks.computeIfAbsent(block, k -> new ArrayList<>()).add(line);
        }
        StringBuilder sb = new StringBuilder();
        blocks.forEach((block, lines) -> sb.append(block).append(":\n").append(String.join("\n", lines)).append('\n'));
        return sb.toString();
    }

    private static String istio(List<Change> changes) {
        List<String> lines = new ArrayList<>();
        List<String> impossible = new ArrayList<>();
        for (Change c : changes) {
            String name = ISTIO_NAMES.get(c.envoyPath());
            if (name == null) {
                impossible.add(c.envoyPath().substring(c.envoyPath().indexOf('.') + 1) + ": " + c.value());
                continue;
            }
            Object value = c.envoyPath().endsWith("enforcing_consecutive_gateway_failure") ? null : c.value();
            if (value == null) {
                continue;
            }
            lines.add("    " + name + ": " + value + comment(c));
        }
        if (lines.isEmpty() && impossible.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        if (!lines.isEmpty()) {
            sb.append("trafficPolicy:\n  outlierDetection:\n").append(String.join("\n", lines)).append('\n');
        }
        if (!impossible.isEmpty()) {
            sb.append("# a DestinationRule cannot set ").append(String.join(", ", impossible))
                    .append("; an EnvoyFilter patch can\n");
        }
        return sb.toString();
    }

    private static String comment(Change c) {
        return c.comment() == null ? "" : "   # " + c.comment();
    }
}
