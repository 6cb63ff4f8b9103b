package dev.outlierlab.config.envoy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recognises Envoy's v1 JSON configuration (clusters under {@code cluster_manager.clusters}, with
 * {@code connect_timeout_ms}, {@code lb_type} and {@code hosts: [{url: tcp://...}]}), which current Envoy no
 * longer reads ("Support for v1 and v2 has been completely removed", Envoy's FAQ "How do I configure Envoy to
 * use the v3 API?"), so that such a file is named for what it is instead of failing on its first field.
 */
final class EnvoyV1 {
    /** Fields only the v1 cluster had; v3 spells them connect_timeout (a duration) and lb_policy. */
    private static final Set<String> V1_ONLY = Set.of("connect_timeout_ms", "lb_type", "ssl_context");

    private static final int MAX_DEPTH = 4;

    private EnvoyV1() {}

    /** Throws when the tree is v1 configuration, naming the field that shows it. */
    static void refuse(Located root) {
        Located evidence = find(root, 0);
        if (evidence != null) {
            throw new InputException(evidence.origin() + ": this is Envoy's v1 configuration (" + evidence.value()
                    + "), which Envoy no longer reads: support for the v1 API has been removed. Write it as v3: "
                    + "connect_timeout: 0.25s for connect_timeout_ms: 250, lb_policy for lb_type, load_assignment "
                    + "endpoints for hosts [{url: tcp://...}], static_resources.clusters for cluster_manager.clusters");
        }
    }

    private static Located find(Located node, int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        if (node.value() instanceof Map<?, ?> map) {
            Located cm = EnvoyConfigReader.child(node, "cluster_manager");
            if (depth == 0 && cm != null && EnvoyConfigReader.child(cm, "clusters") != null) {
                return new Located(
                        "cluster_manager.clusters",
                        EnvoyConfigReader.child(cm, "clusters").origin());
            }
            boolean clusterLike = map.containsKey("name") || map.containsKey("type");
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (clusterLike && V1_ONLY.contains((String) e.getKey()) && !map.containsKey("connect_timeout")) {
                    return new Located((String) e.getKey(), ((Located) e.getValue()).origin());
                }
            }
            for (Object v : map.values()) {
                Located found = find((Located) v, depth + 1);
                if (found != null) {
                    return found;
                }
            }
        } else if (node.value() instanceof List<?> list) {
            for (Object v : list) {
                Located found = find((Located) v, depth + 1);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
