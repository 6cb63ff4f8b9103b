package dev.outlierlab.config.kube;

import dev.outlierlab.config.envoy.EnvoyConfig;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Cilium's {@code CiliumEnvoyConfig} and {@code CiliumClusterwideEnvoyConfig} (cilium.io/v2): {@code spec.resources}
 * is a list of Envoy xDS resources, each an {@code Any} with its {@code @type}, which the Cilium agent hands to its
 * Envoy as they are (cilium/cilium {@code pkg/ciliumenvoyconfig}). The {@code envoy.config.cluster.v3.Cluster}s among
 * them are read with the Envoy reader, so their outlier detection is checked as any cluster's; listeners and
 * routes are skipped, except that a route's retry policy is reported by the caller.
 */
public final class CiliumEnvoyConfigs {
    private static final String CLUSTER_URL = "type.googleapis.com/envoy.config.cluster.v3.Cluster";

    private CiliumEnvoyConfigs() {}

    /** The clusters of the resource's {@code spec.resources}. */
    public static EnvoyConfig clusters(Manifests.Resource r, String source, List<String> lines) {
        List<Located> nodes = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        List<Located> resources = resources(r);
        for (int i = 0; i < resources.size(); i++) {
            Located item = resources.get(i);
            if (item.value() instanceof Map<?, ?> m
                    && m.get("@type") instanceof Located t
                    && (CLUSTER_URL.equals(t.value())
                            || String.valueOf(t.value()).endsWith("/envoy.api.v2.Cluster"))) {
                nodes.add(item);
                paths.add("spec.resources[" + i + "]");
            }
        }
        return EnvoyConfigReader.readEmbeddedClusters(nodes, paths, source, lines);
    }

    /** Every item of {@code spec.resources}. */
    public static List<Located> resources(Manifests.Resource r) {
        Located spec = r.get("spec");
        List<Located> out = new ArrayList<>();
        if (spec != null
                && spec.value() instanceof Map<?, ?> m
                && m.get("resources") instanceof Located res
                && res.value() instanceof List<?> list) {
            list.forEach(x -> out.add((Located) x));
        }
        return out;
    }
}
