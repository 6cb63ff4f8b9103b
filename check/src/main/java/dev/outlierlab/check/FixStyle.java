package dev.outlierlab.check;

import dev.outlierlab.config.istio.IstioFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Writes a suggested change as a YAML snippet in the dialect of the file it is for: Envoy field names under
 * {@code outlier_detection} and {@code common_lb_config}, or the resource's own fields (an Istio
 * DestinationRule's {@code trafficPolicy.outlierDetection}, a Flagger Canary's
 * {@code spec.service.trafficPolicy.outlierDetection}, an Envoy Gateway BackendTrafficPolicy's
 * {@code spec.healthCheck.passive}, a Kuma MeshCircuitBreaker's {@code default.outlierDetection}, a kgateway
 * BackendConfigPolicy's {@code spec.outlierDetection}). Where an
 * Envoy field has no equivalent in the resource, the snippet says so.
 */
public enum FixStyle {
    ENVOY(null, Map.of(), null),
    /** A gateway configuration: the change's path is already the file's own ({@code gateway.stdev_factor}). */
    GATEWAY(null, Map.of(), null),
    ISTIO("trafficPolicy.outlierDetection", Istio.NAMES, "a DestinationRule cannot set %s; an EnvoyFilter patch can"),
    FLAGGER(
            "spec.service.trafficPolicy.outlierDetection",
            Istio.NAMES,
            "a Canary's trafficPolicy cannot set %s; an EnvoyFilter patch can"),
    /** A DestinationRule that kgateway translates (its Gateway's class is kgateway's). */
    KGATEWAY("trafficPolicy.outlierDetection", Istio.NAMES, "kgateway reads no %s from a DestinationRule"),
    /** Admiral's OutlierDetection, which Admiral writes into a DestinationRule for istiod. */
    ADMIRAL(
            "spec.outlier_config",
            Map.of("outlier_detection.consecutive_gateway_failure", "consecutive_gateway_errors"),
            "an Admiral OutlierDetection cannot set %s; a DestinationRule of your own can"),
    ENVOY_GATEWAY(
            "spec.healthCheck.passive",
            Map.ofEntries(
                    Map.entry("outlier_detection.consecutive_5xx", "consecutive5XxErrors"),
                    Map.entry("outlier_detection.consecutive_gateway_failure", "consecutiveGatewayErrors"),
                    Map.entry("outlier_detection.enforcing_consecutive_gateway_failure", ""),
                    Map.entry("outlier_detection.consecutive_local_origin_failure", "consecutiveLocalOriginFailures"),
                    Map.entry("outlier_detection.split_external_local_origin_errors", "splitExternalLocalOriginErrors"),
                    Map.entry("outlier_detection.interval", "interval"),
                    Map.entry("outlier_detection.base_ejection_time", "baseEjectionTime"),
                    Map.entry("outlier_detection.max_ejection_percent", "maxEjectionPercent"),
                    Map.entry("outlier_detection.failure_percentage_threshold", "failurePercentageThreshold"),
                    Map.entry("outlier_detection.enforcing_failure_percentage", ""),
                    Map.entry("outlier_detection.always_eject_one_host", "alwaysEjectOneEndpoint"),
                    Map.entry("common_lb_config.healthy_panic_threshold", "^panicThreshold")),
            "a BackendTrafficPolicy cannot set %s; an EnvoyPatchPolicy can"),
    /** kgateway's own BackendConfigPolicy ({@code spec.outlierDetection}, {@code spec.loadBalancer}). */
    KGATEWAY_POLICY(
            "spec.outlierDetection",
            Map.ofEntries(
                    Map.entry("outlier_detection.consecutive_5xx", "consecutive5xx"),
                    Map.entry("outlier_detection.enforcing_consecutive_5xx", "enforcingConsecutive5xx"),
                    Map.entry("outlier_detection.split_external_local_origin_errors", "splitExternalLocalOriginErrors"),
                    Map.entry("outlier_detection.consecutive_local_origin_failure", "consecutiveLocalOriginFailure"),
                    Map.entry(
                            "outlier_detection.enforcing_consecutive_local_origin_failure",
                            "enforcingConsecutiveLocalOriginFailure"),
                    Map.entry("outlier_detection.interval", "interval"),
                    Map.entry("outlier_detection.base_ejection_time", "baseEjectionTime"),
                    Map.entry("outlier_detection.max_ejection_percent", "maxEjectionPercent"),
                    Map.entry("common_lb_config.healthy_panic_threshold", "^loadBalancer.healthyPanicThreshold")),
            "a BackendConfigPolicy cannot set %s"),
    KUMA(
            "default.outlierDetection",
            Map.ofEntries(
                    Map.entry("outlier_detection.consecutive_5xx", "detectors.totalFailures.consecutive"),
                    Map.entry("outlier_detection.enforcing_consecutive_5xx", "detectors.totalFailures.consecutive=5"),
                    Map.entry("outlier_detection.consecutive_gateway_failure", "detectors.gatewayFailures.consecutive"),
                    Map.entry("outlier_detection.enforcing_consecutive_gateway_failure", ""),
                    Map.entry(
                            "outlier_detection.consecutive_local_origin_failure",
                            "detectors.localOriginFailures.consecutive"),
                    Map.entry("outlier_detection.split_external_local_origin_errors", "splitExternalAndLocalErrors"),
                    Map.entry("outlier_detection.interval", "interval"),
                    Map.entry("outlier_detection.base_ejection_time", "baseEjectionTime"),
                    Map.entry("outlier_detection.max_ejection_percent", "maxEjectionPercent"),
                    Map.entry("outlier_detection.success_rate_minimum_hosts", "detectors.successRate.minimumHosts"),
                    Map.entry("outlier_detection.success_rate_request_volume", "detectors.successRate.requestVolume"),
                    Map.entry(
                            "outlier_detection.success_rate_stdev_factor",
                            "detectors.successRate.standardDeviationFactor/1000"),
                    Map.entry(
                            "outlier_detection.failure_percentage_threshold", "detectors.failurePercentage.threshold"),
                    Map.entry("outlier_detection.enforcing_failure_percentage", ""),
                    Map.entry(
                            "outlier_detection.failure_percentage_minimum_hosts",
                            "detectors.failurePercentage.minimumHosts"),
                    Map.entry(
                            "outlier_detection.failure_percentage_request_volume",
                            "detectors.failurePercentage.requestVolume"),
                    Map.entry("common_lb_config.healthy_panic_threshold", "healthyPanicThreshold")),
            "a MeshCircuitBreaker cannot set %s"),
    /**
     * A gRPC service config's {@code outlier_detection_experimental} (gRFC A50's {@code outlierDetection} fields,
     * grpc-java's spellings): success rate and failure percentage, each in its block, no consecutive detectors.
     */
    GRPC(
            "outlier_detection_experimental",
            Map.ofEntries(
                    Map.entry("outlier_detection.interval", "interval"),
                    Map.entry("outlier_detection.base_ejection_time", "baseEjectionTime"),
                    Map.entry("outlier_detection.max_ejection_time", "maxEjectionTime"),
                    Map.entry("outlier_detection.max_ejection_percent", "maxEjectionPercentage"),
                    Map.entry("outlier_detection.enforcing_success_rate", "successRateEjection.enforcementPercentage"),
                    Map.entry("outlier_detection.success_rate_stdev_factor", "successRateEjection.stdevFactor"),
                    Map.entry("outlier_detection.success_rate_minimum_hosts", "successRateEjection.minimumHosts"),
                    Map.entry("outlier_detection.success_rate_request_volume", "successRateEjection.requestVolume"),
                    Map.entry(
                            "outlier_detection.enforcing_failure_percentage",
                            "failurePercentageEjection.enforcementPercentage"),
                    Map.entry("outlier_detection.failure_percentage_threshold", "failurePercentageEjection.threshold"),
                    Map.entry(
                            "outlier_detection.failure_percentage_minimum_hosts",
                            "failurePercentageEjection.minimumHosts"),
                    Map.entry(
                            "outlier_detection.failure_percentage_request_volume",
                            "failurePercentageEjection.requestVolume")),
            "a gRPC service config cannot set %s");

    /** One field to set: an Envoy path such as {@code outlier_detection.max_ejection_percent}, a value, a comment. */
    public record Change(String envoyPath, Object value, String comment) {
        public Change(String envoyPath, Object value) {
            this(envoyPath, value, null);
        }
    }

    /**
     * A fix said in one line of a dialect, and the Envoy fields the dialect cannot set (for a patch).
     *
     * @param line   the alternatives in the dialect's field paths, joined with "or"
     * @param cannot the changes no field of the dialect can make, in order; empty when every one can be made
     */
    public record Phrase(String line, List<Change> cannot) {
        public Phrase {
            cannot = List.copyOf(cannot);
        }
    }

    /** The count whose value above 0 makes a translator enforce the detector by itself. */
    private static final Map<String, String> ENFORCED_BY = Map.of(
            "outlier_detection.enforcing_consecutive_5xx",
            "outlier_detection.consecutive_5xx",
            "outlier_detection.enforcing_consecutive_gateway_failure",
            "outlier_detection.consecutive_gateway_failure",
            "outlier_detection.enforcing_consecutive_local_origin_failure",
            "outlier_detection.consecutive_local_origin_failure",
            "outlier_detection.enforcing_failure_percentage",
            "outlier_detection.failure_percentage_threshold");

    /** Istio's names for the Envoy fields a DestinationRule can set. */
    private static final class Istio {
        static final Map<String, String> NAMES = IstioFields.BY_ENVOY_PATH;
    }

    private final String block;
    private final Map<String, String> names;
    private final String impossible;

    /**
     * @param block      the dialect's path to the outlier settings; null for Envoy's own fields
     * @param names      Envoy path -> the dialect's field under {@code block} (dotted for nesting; {@code ^name} one
     *                   level up from the block; {@code name=value} a fixed value; {@code name/1000} the value
     *                   divided by 1000; empty when the dialect sets it by itself, e.g. enforcement with the threshold)
     * @param impossible the sentence for fields the dialect cannot set ({@code %s}: the fields)
     */
    FixStyle(String block, Map<String, String> names, String impossible) {
        this.block = block;
        this.names = names;
        this.impossible = impossible;
    }

    /** Who turns the resource into Envoy settings, for the translation listing; null for Envoy's own files. */
    public String translatedBy() {
        return switch (this) {
            case ENVOY, GATEWAY -> null;
            case GRPC -> "grpc-java";
            case ISTIO -> "istiod";
            case KGATEWAY, KGATEWAY_POLICY -> "kgateway";
            case ADMIRAL -> "Admiral and istiod";
            case FLAGGER -> "Flagger and istiod";
            case ENVOY_GATEWAY -> "Envoy Gateway";
            case KUMA -> "Kuma";
        };
    }

    /**
     * The alternatives of a fix in this dialect's own field paths ({@code trafficPolicy.outlierDetection.maxEjectionPercent
     * 13}); a field the dialect sets by itself with a threshold (Istio's enforcement) is said as that threshold at
     * its {@code current} value; a field no field of the dialect can set is named with why, and returned for a
     * patch. For Envoy's own files, the Envoy field names.
     *
     * @param current Envoy path -> the value in effect, for the thresholds that imply an enforcement
     */
    public Phrase phrase(List<List<Change>> alternatives, Map<String, Object> current) {
        List<String> said = new ArrayList<>();
        List<Change> cannot = new ArrayList<>();
        boolean oneExpressible = false;
        for (List<Change> alternative : alternatives) {
            List<String> parts = new ArrayList<>();
            int before = cannot.size();
            for (Change c : alternative) {
                String field = c.envoyPath().substring(c.envoyPath().indexOf('.') + 1);
                if (block == null) {
                    parts.add(field + " " + c.value() + paren(c.comment()));
                    continue;
                }
                String name = names.get(c.envoyPath());
                String companion = ENFORCED_BY.get(c.envoyPath());
                if (name != null
                        && name.isEmpty()
                        && companion != null
                        && names.get(companion) != null
                        && !names.get(companion).isEmpty()
                        && current.get(companion) != null) {
                    Object threshold = current.get(companion);
                    parts.add(path(names.get(companion)) + " " + threshold + " (above 0, so " + translatedBy()
                            + " enforces it: " + c.value() + ")");
                } else if (name == null || name.isEmpty()) {
                    parts.add(field + " " + c.value() + ", which " + cannotSay(field));
                    cannot.add(c);
                } else {
                    parts.add(path(name) + " " + valueOf(name, c.value()) + paren(c.comment()));
                }
            }
            said.add(String.join(" and ", parts));
            oneExpressible |= cannot.size() == before;
        }
        // a patch only when no alternative can be written in the dialect's own fields
        return new Phrase(String.join(", or ", said), oneExpressible ? List.of() : cannot);
    }

    /**
     * The dialect's path to the field that sets an Envoy field ({@code trafficPolicy.outlierDetection.maxEjectionPercent}
     * for {@code outlier_detection.max_ejection_percent}), the bare Envoy field for Envoy's own files; null when no
     * field of the dialect sets it or the dialect sets it by itself (an enforcement, see {@link #enforcedBy}).
     */
    public String fieldPath(String envoyPath) {
        if (block == null) {
            return envoyPath.substring(envoyPath.indexOf('.') + 1);
        }
        String name = names.get(envoyPath);
        return name == null || name.isEmpty() ? null : path(name);
    }

    /**
     * For an enforcement the dialect sets by itself with a threshold ({@code enforcing_consecutive_5xx} with
     * Istio's {@code consecutive5xxErrors} above 0), the Envoy path of that threshold; else null.
     */
    public String enforcedBy(String envoyPath) {
        String companion = ENFORCED_BY.get(envoyPath);
        return block != null && "".equals(names.get(envoyPath)) && companion != null && fieldPath(companion) != null
                ? companion
                : null;
    }

    /** Why this dialect cannot set an Envoy field ({@code enforcing_success_rate}), as the end of a sentence. */
    public String whyCannot(String envoyField) {
        return cannotSay(envoyField);
    }

    /** Why this dialect cannot set an Envoy field, as the end of a sentence. */
    private String cannotSay(String field) {
        if ((this == ISTIO || this == FLAGGER) && field.equals("enforcing_success_rate")) {
            return "no DestinationRule field sets (istiod always writes 0)";
        }
        String what = switch (this) {
            case ISTIO, KGATEWAY -> "DestinationRule";
            case FLAGGER -> "Canary";
            case ADMIRAL -> "Admiral OutlierDetection";
            case ENVOY_GATEWAY -> "BackendTrafficPolicy";
            case KGATEWAY_POLICY -> "BackendConfigPolicy";
            case KUMA -> "MeshCircuitBreaker";
            case GRPC -> "gRPC service config";
            case ENVOY, GATEWAY -> "configuration";
        };
        return "no " + what + " field sets" + (this == KGATEWAY ? " that kgateway reads" : "");
    }

    /** Whether fixes this dialect cannot express can be made with an Istio EnvoyFilter. */
    public boolean patchedByEnvoyFilter() {
        return this == ISTIO || this == FLAGGER;
    }

    private String path(String name) {
        String bare = name.contains("=")
                ? name.substring(0, name.indexOf('='))
                : name.endsWith("/1000") ? name.substring(0, name.length() - "/1000".length()) : name;
        return bare.startsWith("^") ? parent(block) + bare.substring(1) : block + "." + bare;
    }

    private static Object valueOf(String name, Object value) {
        if (name.contains("=")) {
            return name.substring(name.indexOf('=') + 1);
        }
        if (name.endsWith("/1000") && value instanceof Number n) {
            return FindingSink.fmt(n.longValue() / 1000.0);
        }
        return value;
    }

    private static String paren(String comment) {
        return comment == null ? "" : " (" + comment + ")";
    }

    /** The snippet, or null when nothing in it can be expressed in this dialect. */
    public String render(List<Change> changes) {
        return block == null ? envoy(changes) : dialect(changes);
    }

    private static String envoy(List<Change> changes) {
        Map<String, List<String>> blocks = new LinkedHashMap<>();
        for (Change c : changes) {
            int dot = c.envoyPath().indexOf('.');
            String blockName = c.envoyPath().substring(0, dot);
            String field = c.envoyPath().substring(dot + 1);
            String line = field.equals("healthy_panic_threshold")
                    ? "  healthy_panic_threshold:\n    value: " + c.value() + comment(c)
                    : "  " + field + ": " + c.value() + comment(c);
            blocks.computeIfAbsent(blockName, k -> new ArrayList<>()).add(line);
        }
        StringBuilder sb = new StringBuilder();
        blocks.forEach((b, lines) ->
                sb.append(b).append(":\n").append(String.join("\n", lines)).append('\n'));
        return sb.toString();
    }

    private String dialect(List<Change> changes) {
        Tree root = new Tree();
        List<String> cannot = new ArrayList<>();
        for (Change c : changes) {
            String name = names.get(c.envoyPath());
            if (name == null) {
                cannot.add(c.envoyPath().substring(c.envoyPath().indexOf('.') + 1) + ": " + c.value());
                continue;
            }
            if (name.isEmpty()) {
                continue;
            }
            UnaryOperator<Object> value = v -> v;
            if (name.contains("=")) {
                Object fixed = name.substring(name.indexOf('=') + 1);
                name = name.substring(0, name.indexOf('='));
                value = v -> fixed;
            } else if (name.endsWith("/1000")) {
                name = name.substring(0, name.length() - "/1000".length());
                value = v -> v instanceof Number n ? FindingSink.fmt(n.longValue() / 1000.0) : v;
            }
            String path = name.startsWith("^") ? parent(block) + name.substring(1) : block + "." + name;
            root.put(path.split("\\."), value.apply(c.value()) + comment(c));
        }
        if (root.children.isEmpty() && cannot.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        root.render(sb, "");
        if (!cannot.isEmpty()) {
            sb.append("# ")
                    .append(String.format(impossible, String.join(", ", cannot)))
                    .append('\n');
        }
        return sb.toString();
    }

    private static String parent(String path) {
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : path.substring(0, dot + 1);
    }

    private static String comment(Change c) {
        return c.comment() == null ? "" : "   # " + c.comment();
    }

    /** Nested YAML keys in insertion order. */
    private static final class Tree {
        final Map<String, Object> children = new LinkedHashMap<>();

        void put(String[] path, String leaf) {
            Tree t = this;
            for (int i = 0; i < path.length - 1; i++) {
                t = (Tree) t.children.computeIfAbsent(path[i], k -> new Tree());
            }
            t.children.putIfAbsent(path[path.length - 1], leaf);
        }

        void render(StringBuilder sb, String indent) {
            children.forEach((k, v) -> {
                if (v instanceof Tree t) {
                    sb.append(indent).append(k).append(":\n");
                    t.render(sb, indent + "  ");
                } else {
                    sb.append(indent).append(k).append(": ").append(v).append('\n');
                }
            });
        }
    }
}
