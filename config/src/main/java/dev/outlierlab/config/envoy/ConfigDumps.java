package dev.outlierlab.config.envoy;

import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the clusters in an Envoy admin {@code /config_dump}: every {@code envoy.admin.v3.ClustersConfigDump}
 * in the tree, wherever it is (at {@code configs[i]} in Envoy's own dump and Kuma's
 * {@code kumactl inspect dataplane --config-dump}, under namespace and pod keys in {@code egctl config
 * envoy-proxy cluster}), and in it {@code static_clusters}, {@code dynamic_active_clusters} and
 * {@code dynamic_warming_clusters}, each entry's {@code cluster}. Also counts the endpoints of an
 * {@code EndpointsConfigDump}, by cluster name, so that an EDS cluster's hosts can be known from the same dump.
 */
final class ConfigDumps {
    private static final String CLUSTERS = "envoy.admin.v3.ClustersConfigDump";
    private static final String ENDPOINTS = "envoy.admin.v3.EndpointsConfigDump";
    private static final int MAX_DEPTH = 6;

    /** One cluster of a dump and its path there, for messages. */
    record Entry(Located cluster, String path) {}

    private ConfigDumps() {}

    static List<Entry> clusters(Located root) {
        List<Entry> out = new ArrayList<>();
        for (Map.Entry<String, Located> dump : find(root, CLUSTERS, "").entrySet()) {
            for (String list :
                    new String[] {"static_clusters", "dynamic_active_clusters", "dynamic_warming_clusters"}) {
                Located items = EnvoyConfigReader.child(dump.getValue(), list, ClusterExtractor.camel(list));
                if (items == null || !(items.value() instanceof List<?> entries)) {
                    continue;
                }
                for (int i = 0; i < entries.size(); i++) {
                    Located cluster = EnvoyConfigReader.child((Located) entries.get(i), "cluster");
                    if (cluster != null) {
                        out.add(new Entry(cluster, ProtoShape.join(dump.getKey(), list + "[" + i + "].cluster")));
                    }
                }
            }
        }
        return out;
    }

    /** Endpoints per cluster name in the dump's EndpointsConfigDump (empty without one). */
    static Map<String, Integer> endpointCounts(Located root) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Located dump : find(root, ENDPOINTS, "").values()) {
            for (String list : new String[] {"static_endpoint_configs", "dynamic_endpoint_configs"}) {
                Located items = EnvoyConfigReader.child(dump, list, ClusterExtractor.camel(list));
                if (items == null || !(items.value() instanceof List<?> entries)) {
                    continue;
                }
                for (Object e : entries) {
                    Located assignment = EnvoyConfigReader.child((Located) e, "endpoint_config", "endpointConfig");
                    Located name = assignment == null
                            ? null
                            : EnvoyConfigReader.child(assignment, "cluster_name", "clusterName");
                    if (name != null && name.value() instanceof String n) {
                        out.merge(n, count(assignment), Integer::sum);
                    }
                }
            }
        }
        return out;
    }

    private static int count(Located assignment) {
        int n = 0;
        Located groups = EnvoyConfigReader.child(assignment, "endpoints");
        if (groups != null && groups.value() instanceof List<?> list) {
            for (Object g : list) {
                Located lb = EnvoyConfigReader.child((Located) g, "lb_endpoints", "lbEndpoints");
                n += lb != null && lb.value() instanceof List<?> eps ? eps.size() : 0;
            }
        }
        return n;
    }

    /** Every mapping whose {@code @type} names {@code type}, by path, at most a few levels down. */
    private static Map<String, Located> find(Located node, String type, String path) {
        Map<String, Located> out = new LinkedHashMap<>();
        find(node, type, path, 0, out);
        return out;
    }

    private static void find(Located node, String type, String path, int depth, Map<String, Located> out) {
        if (depth > MAX_DEPTH) {
            return;
        }
        if (node.value() instanceof Map<?, ?> map) {
            if (map.get("@type") instanceof Located t && t.value() instanceof String url && url.endsWith("/" + type)) {
                out.put(path, node);
                return;
            }
            map.forEach((k, v) -> find((Located) v, type, ProtoShape.join(path, (String) k), depth + 1, out));
        } else if (node.value() instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                find((Located) list.get(i), type, path + "[" + i + "]", depth + 1, out);
            }
        }
    }
}
