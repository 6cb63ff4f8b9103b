package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A document given where a scenario was expected that is plainly something else the lab reads another way: a
 * Kubernetes resource (an Istio DestinationRule, an Envoy Gateway or Kuma policy) or Envoy configuration. Instead
 * of "unknown key 'apiVersion'", the message says what the file looks like and the option that reads it.
 */
final class ForeignDocument {
    private static final Set<String> ENVOY_KEYS = Set.of(
            "connect_timeout",
            "load_assignment",
            "lb_policy",
            "static_resources",
            "dynamic_resources",
            "resources",
            "configs",
            "clusters",
            "common_lb_config",
            "outlier_detection_event_log",
            "type",
            "eds_cluster_config");

    private ForeignDocument() {}

    /** Throws a message naming the right option when the scenario's top level is a Kubernetes or Envoy document. */
    static void refuse(Located root, String source) {
        if (!(root.value() instanceof Map<?, ?> top)) {
            return;
        }
        if (top.containsKey("apiVersion") || top.containsKey("kind")) {
            Object kind = top.get("kind") instanceof Located k ? k.value() : null;
            String what = kind == null ? "a Kubernetes resource" : "a Kubernetes " + kind;
            boolean istio = "DestinationRule".equals(kind);
            throw new InputException(source + ": this is " + what + ", not a scenario; "
                    + (istio
                            ? "run it with --istio " + source + " --hosts N (the number of endpoints)"
                            : "check " + source + " reads it, and run --istio/--envoy simulate the configurations"
                                    + " check translates")
                    + "; a scenario has the keys "
                    + String.join(
                            ", ", List.of("name", "duration", "cluster", "traffic", "faults", "outlier_detection"))
                    + ", ...");
        }
        if (top.containsKey("name") && top.keySet().stream().anyMatch(ENVOY_KEYS::contains)
                || top.containsKey("static_resources")
                || top.containsKey("configs")) {
            throw new InputException(source + ": this is Envoy configuration, not a scenario; run it with --envoy "
                    + source + " (and --cluster NAME when it has several clusters)");
        }
    }
}
