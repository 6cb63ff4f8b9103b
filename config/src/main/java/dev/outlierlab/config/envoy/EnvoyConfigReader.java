package dev.outlierlab.config.envoy;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.engine.InvalidConfigException;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Envoy configuration with Envoy's own protos: a single {@code Cluster}, a list of clusters, a
 * bootstrap (its {@code static_resources.clusters}), a CDS {@code DiscoveryResponse}, or an admin
 * {@code /config_dump} (the clusters of its {@code ClustersConfigDump}, also inside {@code egctl}'s and Kuma's
 * dumps; see {@link ConfigDumps}). YAML is loaded with
 * SnakeYAML (anchors and merge keys work), checked field by field against the proto types so that a mistake
 * is reported with its path and line ({@link ProtoShape}), then parsed by protobuf's JSON parser with every
 * {@code @type} it contains registered. Each cluster is then turned into an {@link EnvoyCluster} by
 * {@link ClusterExtractor}.
 */
public final class EnvoyConfigReader {
    private static final String CLUSTER_TYPE = Cluster.getDescriptor().getFullName();
    private static final Set<String> BOOTSTRAP_KEYS = Set.of(
            "static_resources",
            "staticResources",
            "dynamic_resources",
            "dynamicResources",
            "admin",
            "node",
            "layered_runtime",
            "layeredRuntime",
            "cluster_manager",
            "clusterManager",
            "overload_manager",
            "overloadManager");

    /** Starts the message for a file whose structure is not Envoy configuration. */
    public static final String NOT_ENVOY = "not Envoy configuration";

    private EnvoyConfigReader() {}

    /**
     * Refuses a mapping read as a Cluster when most of its top-level keys are not Cluster fields (a Helm values
     * file with a {@code name:} key is not a cluster), naming what was found. A cluster with a field newer than
     * the bundled protos still reads, with a note.
     */
    private static void refuseUnlessCluster(Located node, String what) {
        if (!(node.value() instanceof Map<?, ?> map) || map.isEmpty()) {
            return;
        }
        // a cluster whose only other key is a misspelt outlier_detection is a typo, not another format
        @SuppressWarnings("unchecked")
        Map<String, Located> fields = (Map<String, Located>) map;
        OutlierKeyTypos.check(fields, "", List.of("outlier_detection", "outlierDetection"));
        List<String> keys = new ArrayList<>();
        int known = 0;
        for (Object k : map.keySet()) {
            String key = (String) k;
            keys.add(key);
            if (Cluster.getDescriptor().findFieldByName(key) != null
                    || Cluster.getDescriptor().getFields().stream()
                            .anyMatch(f -> f.getJsonName().equals(key))
                    || key.equals("@type")) {
                known++;
            }
        }
        if (known * 2 > keys.size()) {
            return;
        }
        Object kind = map.get("kind") instanceof Located l ? l.value() : null;
        throw new InputException(node.origin() + ": " + NOT_ENVOY + ": found " + what + " with top-level keys "
                + String.join(", ", keys.subList(0, Math.min(keys.size(), 8))) + (keys.size() > 8 ? ", ..." : "")
                + (kind != null ? " (kind " + Wording.describe(kind) + ")" : "") + ", of which "
                + (known == 0 ? "none is" : known == 1 ? "only 1 is" : "only " + known + " are")
                + " a field of an Envoy Cluster, and none of a bootstrap, a CDS DiscoveryResponse or a config dump");
    }

    /**
     * Reads a document.
     *
     * @param source the file name, for messages
     * @throws InputException for malformed YAML, an unknown field, a wrong type, an unknown {@code @type},
     *                        an empty file or a cluster without a name
     */
    public static EnvoyConfig read(String text, String source) {
        if (text.isBlank()
                || text.lines()
                        .allMatch(l -> l.isBlank()
                                || l.strip().startsWith("#")
                                || l.strip().equals("---"))) {
            throw new InputException(source + ": the file is empty; expected an Envoy Cluster, a list of clusters, "
                    + "a bootstrap (static_resources.clusters) or a CDS DiscoveryResponse");
        }
        Located root = YamlTree.parse(text, source);
        EnvoyV1.refuse(root);
        ProtoTypes types = new ProtoTypes();
        ProtoShape shape = new ProtoShape(types);
        List<Located> clusterNodes = new ArrayList<>();
        List<Cluster> clusters = new ArrayList<>();
        EnvoyConfig.Kind kind;
        List<ConfigDumps.Entry> dumps;
        Map<String, Integer> endpointCounts = Map.of();
        List<String> v2Notes = new ArrayList<>();
        if (root.value() instanceof List<?> items) {
            kind = EnvoyConfig.Kind.CLUSTER_LIST;
            for (int i = 0; i < items.size(); i++) {
                Located raw = (Located) items.get(i);
                if (i == 0
                        && !V2Clusters.isV2(raw)
                        && !(raw.value() instanceof Map<?, ?> m0 && m0.containsKey("@type"))) {
                    refuseUnlessCluster(raw, "a list whose first item is a mapping");
                }
                Located item = V2Clusters.isV2(raw)
                        ? V2Clusters.asV3(raw, "[" + i + "]", v2Notes)
                        : withoutType(raw, "[" + i + "]", types, CLUSTER_TYPE);
                item = shape.check(item, Cluster.getDescriptor(), "[" + i + "]");
                clusters.add((Cluster) parse(item, Cluster.newBuilder(), types, source));
                clusterNodes.add(item);
            }
        } else if (root.value() instanceof Map<?, ?> map && !(dumps = ConfigDumps.clusters(root)).isEmpty()) {
            kind = EnvoyConfig.Kind.CONFIG_DUMP;
            for (ConfigDumps.Entry e : dumps) {
                Located item = V2Clusters.isV2(e.cluster())
                        ? V2Clusters.asV3(e.cluster(), e.path(), v2Notes)
                        : withoutType(e.cluster(), e.path(), types, CLUSTER_TYPE);
                item = shape.check(item, Cluster.getDescriptor(), e.path());
                clusters.add((Cluster) parse(item, Cluster.newBuilder(), types, source));
                clusterNodes.add(item);
            }
            endpointCounts = ConfigDumps.endpointCounts(root);
        } else if (root.value() instanceof Map<?, ?> map) {
            String declared = declaredType(root, types);
            if (DiscoveryResponse.getDescriptor().getFullName().equals(declared)
                    || declared == null && map.containsKey("resources")) {
                kind = EnvoyConfig.Kind.DISCOVERY_RESPONSE;
                Located body =
                        shape.check(withoutType(root, "", types, declared), DiscoveryResponse.getDescriptor(), "");
                DiscoveryResponse response =
                        (DiscoveryResponse) parse(body, DiscoveryResponse.newBuilder(), types, source);
                List<Located> resources = children(body, "resources");
                for (int i = 0; i < response.getResourcesCount(); i++) {
                    clusters.add(unpackCluster(response.getResources(i), resources.get(i), i, source));
                    clusterNodes.add(resources.get(i));
                }
            } else if (Bootstrap.getDescriptor().getFullName().equals(declared)
                    || declared == null && map.keySet().stream().anyMatch(BOOTSTRAP_KEYS::contains)) {
                kind = EnvoyConfig.Kind.BOOTSTRAP;
                Located body = shape.check(withoutType(root, "", types, declared), Bootstrap.getDescriptor(), "");
                Bootstrap bootstrap = (Bootstrap) parse(body, Bootstrap.newBuilder(), types, source);
                clusters.addAll(bootstrap.getStaticResources().getClustersList());
                Located staticResources = child(body, "static_resources", "staticResources");
                clusterNodes.addAll(staticResources == null ? List.of() : children(staticResources, "clusters"));
            } else if (declared == null || CLUSTER_TYPE.equals(declared)) {
                if (declared == null) {
                    refuseUnlessCluster(root, "a mapping");
                }
                kind = EnvoyConfig.Kind.CLUSTER;
                Located body = shape.check(withoutType(root, "", types, declared), Cluster.getDescriptor(), "");
                clusters.add((Cluster) parse(body, Cluster.newBuilder(), types, source));
                clusterNodes.add(body);
            } else {
                throw new InputException(
                        root.origin() + ": @type " + declared + " is not something the reader takes at "
                                + "the top level; expected " + CLUSTER_TYPE + ", "
                                + Bootstrap.getDescriptor().getFullName()
                                + " or " + DiscoveryResponse.getDescriptor().getFullName());
            }
        } else {
            throw new InputException(root.origin() + ": expected an Envoy Cluster (a mapping with name, type, "
                    + "load_assignment, outlier_detection, ...), a list of clusters, a bootstrap or a CDS "
                    + "DiscoveryResponse, not " + Wording.describe(root.value()));
        }
        List<String> notes = new ArrayList<>(v2Notes);
        notes.addAll(shape.notes());
        return finish(
                source,
                kind,
                clusters,
                clusterNodes,
                endpointCounts,
                text.lines().toList(),
                notes);
    }

    /**
     * The Envoy clusters among resources embedded in another kind of file (a CiliumEnvoyConfig's
     * {@code spec.resources}), each an {@code Any} with its {@code @type}; resources of other types are skipped.
     *
     * @param paths each node's path in the file, for messages
     * @param lines the whole file's lines (the nodes carry the file's line numbers)
     */
    public static EnvoyConfig readEmbeddedClusters(
            List<Located> nodes, List<String> paths, String source, List<String> lines) {
        ProtoTypes types = new ProtoTypes();
        ProtoShape shape = new ProtoShape(types);
        List<Cluster> clusters = new ArrayList<>();
        List<Located> clusterNodes = new ArrayList<>();
        List<String> v2Notes = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            Located raw = nodes.get(i);
            Located item = V2Clusters.isV2(raw)
                    ? V2Clusters.asV3(raw, paths.get(i), v2Notes)
                    : withoutType(raw, paths.get(i), types, CLUSTER_TYPE);
            item = shape.check(item, Cluster.getDescriptor(), paths.get(i));
            clusters.add((Cluster) parse(item, Cluster.newBuilder(), types, source));
            clusterNodes.add(item);
        }
        List<String> notes = new ArrayList<>(v2Notes);
        notes.addAll(shape.notes());
        return finish(source, EnvoyConfig.Kind.CLUSTER_LIST, clusters, clusterNodes, Map.of(), lines, notes);
    }

    private static EnvoyConfig finish(
            String source,
            EnvoyConfig.Kind kind,
            List<Cluster> clusters,
            List<Located> clusterNodes,
            Map<String, Integer> endpointCounts,
            List<String> lines,
            List<String> notes) {
        List<EnvoyCluster> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < clusters.size(); i++) {
            EnvoyCluster c = ClusterExtractor.extract(clusters.get(i), clusterNodes.get(i), source, lines);
            Integer dumped = endpointCounts.get(c.name());
            if (dumped != null && c.hosts().isEmpty()) {
                c = c.withEndpointsFromDump(dumped);
            }
            if (!names.add(c.name())) {
                c = c.withProblem(
                        new InvalidConfigException(
                                "name",
                                "'" + c.name() + "'",
                                "a name no other cluster "
                                        + "in the file has (Envoy: \"cluster manager: duplicate cluster '" + c.name()
                                        + "'\")"),
                        c.line());
            }
            out.add(c);
        }
        return new EnvoyConfig(source, kind, out, notes);
    }

    private static String declaredType(Located node, ProtoTypes types) {
        Located t = ((Map<?, ?>) node.value()).get("@type") instanceof Located l ? l : null;
        if (t == null) {
            return null;
        }
        if (!(t.value() instanceof String url)) {
            throw new InputException(
                    t.origin() + ": @type: expected a type URL such as " + ProtoTypes.URL_PREFIX + CLUSTER_TYPE);
        }
        try {
            return types.resolve(url).getFullName();
        } catch (IllegalArgumentException e) {
            throw new InputException(t.origin() + ": " + e.getMessage());
        }
    }

    /** The node without its {@code @type} key, after checking that the type is the expected one. */
    @SuppressWarnings("unchecked")
    private static Located withoutType(Located node, String path, ProtoTypes types, String expected) {
        if (!(node.value() instanceof Map<?, ?> map) || !map.containsKey("@type")) {
            return node;
        }
        String declared = declaredType(node, types);
        if (expected != null && !expected.equals(declared)) {
            throw new InputException(node.origin() + ": " + (path.isEmpty() ? "" : path + ": ") + "@type " + declared
                    + " is not a cluster; expected " + expected);
        }
        LinkedHashMap<String, Located> copy = new LinkedHashMap<>((Map<String, Located>) map);
        copy.remove("@type");
        return new Located(copy, node.origin());
    }

    private static Cluster unpackCluster(Any any, Located node, int index, String source) {
        String typeName = any.getTypeUrl().substring(any.getTypeUrl().lastIndexOf('/') + 1);
        if (!CLUSTER_TYPE.equals(typeName)) {
            throw new InputException(node.origin() + ": resources[" + index + "] is a " + typeName + ", not a cluster; "
                    + "this DiscoveryResponse is not a CDS response (expected @type " + ProtoTypes.URL_PREFIX
                    + CLUSTER_TYPE + ")");
        }
        try {
            return any.unpack(Cluster.class);
        } catch (InvalidProtocolBufferException e) {
            throw new InputException(source + ": resources[" + index + "]: " + e.getMessage());
        }
    }

    private static Message parse(Located node, Message.Builder builder, ProtoTypes types, String source) {
        types.add(builder.getDescriptorForType());
        try {
            JsonFormat.parser()
                    .usingTypeRegistry(types.registry())
                    .merge(toJson(node).toString(), builder);
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
            throw new InputException(node.origin() + ": not a valid "
                    + builder.getDescriptorForType().getFullName() + ": " + e.getMessage());
        }
        return builder.build();
    }

    /** The YAML tree as JSON for protobuf's parser; numbers stay numbers, text stays text. */
    static JsonElement toJson(Located node) {
        Object v = node.value();
        if (v == null) {
            return JsonNull.INSTANCE;
        }
        if (v instanceof Map<?, ?> map) {
            JsonObject o = new JsonObject();
            // a newer Envoy's OutlierDetection field the bundled proto lacks: read by name in ClusterExtractor
            map.forEach((k, x) -> {
                if (!ProtoShape.newerOutlierField((String) k)) {
                    o.add((String) k, toJson((Located) x));
                }
            });
            return o;
        }
        if (v instanceof List<?> list) {
            JsonArray a = new JsonArray();
            list.forEach(x -> a.add(toJson((Located) x)));
            return a;
        }
        if (v instanceof Boolean b) {
            return new JsonPrimitive(b);
        }
        if (v instanceof Long l) {
            return new JsonPrimitive(l);
        }
        if (v instanceof BigDecimal d) {
            return new JsonPrimitive(d);
        }
        return new JsonPrimitive(String.valueOf(v));
    }

    static Located child(Located node, String... names) {
        if (node.value() instanceof Map<?, ?> map) {
            for (String n : names) {
                if (map.get(n) instanceof Located l) {
                    return l;
                }
            }
        }
        return null;
    }

    private static List<Located> children(Located node, String name) {
        List<Located> out = new ArrayList<>();
        Located l = child(node, name);
        if (l != null && l.value() instanceof List<?> list) {
            list.forEach(x -> out.add((Located) x));
        }
        return out;
    }
}
