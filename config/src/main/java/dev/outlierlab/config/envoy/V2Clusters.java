package dev.outlierlab.config.envoy;

import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Clusters in Envoy's removed v2 API ({@code envoy.api.v2.Cluster}) inside a config dump or a list, as an Envoy
 * 1.19-era dump still shows its infrastructure clusters. Their {@code outlier_detection} is the same message
 * as v3's ({@code envoy.api.v2.cluster.OutlierDetection} became {@code envoy.config.cluster.v3.OutlierDetection}
 * field for field, envoyproxy/envoy {@code api/envoy/api/v2/cluster/outlier_detection.proto}), and so are the
 * other fields {@code check} uses; so such a cluster is read as v3 from those fields only, with a note, instead
 * of refusing the whole file. The rest of it (v2 TLS contexts, {@code hosts}) is not read.
 */
final class V2Clusters {
    private static final String V2_CLUSTER = "envoy.api.v2.Cluster";
    /** The v2 fields that mean the same in v3 and that check reads. */
    private static final Set<String> KEPT = Set.of(
            "name",
            "type",
            "outlier_detection",
            "outlierDetection",
            "common_lb_config",
            "commonLbConfig",
            "load_assignment",
            "loadAssignment",
            "eds_cluster_config",
            "edsClusterConfig",
            "connect_timeout",
            "connectTimeout",
            "lb_policy",
            "lbPolicy");

    private V2Clusters() {}

    static boolean isV2(Located node) {
        return node.value() instanceof Map<?, ?> map
                && map.get("@type") instanceof Located t
                && t.value() instanceof String url
                && url.endsWith("/" + V2_CLUSTER);
    }

    /** The cluster's fields that v3 reads alike, with a note naming what was left out. */
    static Located asV3(Located node, String path, List<String> notes) {
        Map<?, ?> map = (Map<?, ?>) node.value();
        LinkedHashMap<String, Located> kept = new LinkedHashMap<>();
        List<String> dropped = new ArrayList<>();
        map.forEach((k, v) -> {
            if (KEPT.contains((String) k)) {
                kept.put((String) k, (Located) v);
            } else if (!"@type".equals(k)) {
                dropped.add((String) k);
            }
        });
        int line = SourceLines.lineOf(node);
        Object name = kept.get("name") == null ? null : kept.get("name").value();
        notes.add("line " + line + ": " + path + (name == null ? "" : " ('" + name + "')") + " is an " + V2_CLUSTER
                + " (Envoy's removed v2 API); its outlier detection, panic threshold and endpoints are the same "
                + "messages in v3 and are read as v3"
                + (dropped.isEmpty()
                        ? ""
                        : "; not read: "
                                + String.join(", ", dropped.subList(0, Math.min(dropped.size(), 6)))
                                + (dropped.size() > 6 ? ", ..." : "")));
        return new Located(kept, node.origin());
    }
}
