package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlTree;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads a scenario file (docs/model.md) into a validated {@link Scenario}: every key optional, defaults from
 * the built-in default scenario, {@code --set KEY=VALUE} overrides applied on top, unknown keys and bad values
 * reported with the key, the value, the line and what is allowed.
 */
public final class ScenarioReader {
    /** A scenario and whether the file named its hosts (a trace may otherwise supply them). */
    public record Loaded(Scenario scenario, boolean hostsGiven) {}

    /**
     * A scenario of one profile, as that profile's {@link ScenarioFormat} read it: {@code envoy} holds the lab's
     * Envoy-shaped scenario (hosts, traffic, faults, {@code outlier_detection}) when the profile has one, and
     * {@code settings} what the profile's own block adds (none for Envoy, gRPC's settings, the whole gateway
     * scenario).
     */
    public record Profiled(Profile profile, Loaded envoy, Object settings) {
        public Profiled {
            Objects.requireNonNull(profile, "profile");
        }

        /** The profile's own settings when they are of this type, else null. */
        public <T> T settings(Class<T> type) {
            return type.isInstance(settings) ? type.cast(settings) : null;
        }

        /** The gateway scenario, when this is one, else null. */
        public GatewayScenario gateway() {
            return settings(GatewayScenario.class);
        }

        /** The gRPC settings, when this is a gRPC scenario, else null. */
        public GrpcSettings grpc() {
            return settings(GrpcSettings.class);
        }

        /** The same profile and settings over another Envoy-shaped scenario. */
        public Profiled withEnvoy(Loaded other) {
            return new Profiled(profile, other, settings);
        }

        /** The profile's name. */
        public String name() {
            return profile.name();
        }
    }

    private static final Set<String> TOP = Set.of(
            "name",
            "duration",
            "seed",
            "envoy_version",
            "profile",
            "cluster",
            "traffic",
            "faults",
            "outlier_detection",
            "health_checks",
            "grpc");
    private static final Set<String> CLUSTER = union(
            Set.of("hosts", "panic_threshold", "capacity", "overload_response", "weights"), RoutingReader.CLUSTER_KEYS);
    private static final Set<String> TRAFFIC =
            union(Set.of("rps", "clients", "arrivals", "steps"), RoutingReader.TRAFFIC_KEYS);

    /** Whether {@code key} (a key's first segment) is one of the lab's top-level scenario keys. */
    public static boolean isTopLevelKey(String key) {
        return TOP.contains(key) || GatewayScenarioReader.GATEWAY_ONLY.contains(key);
    }

    private ScenarioReader() {}

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return Set.copyOf(out);
    }

    /** The default scenario with overrides. */
    public static Loaded defaults(List<String> sets) {
        return read("", "(default scenario)", sets);
    }

    /** The default scenario with overrides, of the profile they choose ({@code --set profile=gateway}). */
    public static Profiled defaultsProfiled(List<String> sets) {
        return readProfiled("", "(default scenario)", sets);
    }

    /**
     * Reads a scenario document of either profile, chosen by its {@code profile} key (after overrides).
     *
     * @param source name of the file, for messages
     * @param sets   {@code KEY=VALUE} overrides with dotted keys, e.g. {@code gateway.mode=shadow}
     */
    public static Profiled readProfiled(String text, String source, List<String> sets) {
        Located document = YamlTree.parse(text, source);
        ForeignDocument.refuse(document, source);
        return profiled(prepare(document, sets));
    }

    /**
     * Reads a scenario document given as plain maps and lists (as {@link ScenarioWriter} makes them), every value
     * located at {@code origin}, with {@code --set} overrides applied: a scenario built from a server's configuration
     * file.
     */
    public static Profiled readPlain(Map<String, Object> document, String origin, List<String> sets) {
        return profiled(prepare(Values.fromPlain(document, origin), sets));
    }

    private static Profiled profiled(Located root) {
        Located profileNode = root.value() instanceof Map<?, ?> m ? (Located) m.get("profile") : null;
        String name = profileNode == null ? EnvoyScenarioFormat.NAME : String.valueOf(profileNode.value());
        ScenarioFormat format = Profiles.facet(
                name, ScenarioFormat.class, names -> Values.error(profileNode, "profile", profileNode.value(), names));
        return format.read(root);
    }

    /** The Envoy-shaped part of a scenario document: what an Envoy scenario is, and what gRPC's runs over. */
    static Loaded readEnvoy(Located root) {
        return build(root);
    }

    /**
     * For a profile's {@link ScenarioFormat}: the lab's part of a scenario document (name, duration, seed, cluster,
     * traffic, faults) with Envoy's defaults for the rest, leaving out the profile's own top-level keys
     * ({@code ownKeys}, which the profile reads itself). Envoy's own settings ({@code outlier_detection},
     * {@code health_checks}) are refused, as they do not apply to another profile.
     */
    public static Loaded readLabPart(Located root, String profile, Set<String> ownKeys) {
        @SuppressWarnings("unchecked")
        Map<String, Located> top = (Map<String, Located>) root.value();
        for (String key : GatewayScenarioReader.ENVOY_ONLY) {
            if (top.containsKey(key)) {
                throw new InputException(
                        top.get(key).origin() + ": " + key + " is Envoy's (profile: envoy) setting, but"
                                + " this scenario's profile is " + profile + "; remove it, or use profile: envoy");
            }
        }
        Map<String, Located> common = new LinkedHashMap<>(top);
        common.keySet().removeAll(ownKeys);
        return build(new Located(common, root.origin()));
    }

    /**
     * Reads a scenario document (YAML or JSON).
     *
     * @param source name of the file, for messages
     * @param sets   {@code KEY=VALUE} overrides with dotted keys, e.g. {@code faults[0].error_rate=100}
     */
    public static Loaded read(String text, String source, List<String> sets) {
        return envoyOnly(readProfiled(text, source, sets), source);
    }

    /**
     * Reads a scenario document from an untrusted sender (the lab server): as {@link #read}, but anchors and
     * aliases are refused outright.
     */
    public static Loaded readWithoutAliases(String text, String source) {
        return envoyOnly(readProfiledWithoutAliases(text, source), source);
    }

    /** As {@link #readProfiled} for an untrusted sender: anchors and aliases are refused outright. */
    public static Profiled readProfiledWithoutAliases(String text, String source) {
        return profiled(prepare(YamlTree.parseWithoutAliases(text, source), List.of()));
    }

    private static Loaded envoyOnly(Profiled profiled, String source) {
        if (!(profiled.profile().facet(ScenarioFormat.class).orElseThrow() instanceof EnvoyScenarioFormat)) {
            throw new InputException(source + ": profile: " + profiled.name() + " scenarios are taken by "
                    + profiled.profile()
                            .facet(ScenarioFormat.class)
                            .orElseThrow()
                            .takenBy() + "; this one takes profile:"
                    + " envoy");
        }
        return profiled.envoy();
    }

    private static Located prepare(Located document, List<String> sets) {
        Located root = labExportInputs(document);
        if (!(root.value() instanceof Map)) {
            throw new InputException(root.origin() + ": a scenario is a mapping of keys (name, duration, cluster, "
                    + "traffic, faults, outlier_detection, ...), not "
                    + Wording.describe(root.value()));
        }
        for (String set : sets) {
            Overrides.apply(root, set);
        }
        return root;
    }

    /**
     * The browser lab's Export JSON ({@code "tool": "outlier-lab"}) holds the scenario as run under
     * {@code inputs}, beside the run's results; such a file is read as that scenario, the results ignored.
     * Any other document is the scenario itself.
     */
    private static Located labExportInputs(Located root) {
        if (root.value() instanceof Map<?, ?> m
                && m.get("tool") instanceof Located tool
                && "outlier-lab".equals(tool.value())
                && m.get("inputs") instanceof Located inputs) {
            return inputs;
        }
        return root;
    }

    private static Loaded build(Located root) {
        Values v = new Values();
        @SuppressWarnings("unchecked")
        Map<String, Located> raw = (Map<String, Located>) root.value();
        for (String key : GatewayScenarioReader.GATEWAY_ONLY) {
            if (raw.containsKey(key)) {
                throw GatewayScenarioReader.gatewayKey(raw.get(key), key);
            }
        }
        Map<String, Located> top = v.map(root, "", TOP);
        Scenario defaults = Scenario.defaults();
        String name = v.text(top.get("name"), "name", defaults.name());
        long duration = v.duration(top.get("duration"), "duration", defaults.durationNanos(), false);
        long seed = v.integer(top.get("seed"), "seed", defaults.seed(), Long.MIN_VALUE, Long.MAX_VALUE);
        EnvoyVersion version = envoyVersion(top.get("envoy_version"));

        Located clusterNode = top.get("cluster");
        Map<String, Located> cluster = clusterNode == null ? Map.of() : v.map(clusterNode, "cluster", CLUSTER);
        Located hostsNode = cluster.get("hosts");
        double panic = v.percentDecimal(
                cluster.get("panic_threshold"),
                "cluster.panic_threshold",
                defaults.cluster().panicThresholdPercent(),
                0,
                100,
                "a percentage from 0 to 100 (0 disables panic mode)");
        ClusterSpec clusterSpec = v.guard(
                hostsNode,
                "cluster.hosts",
                () -> hostsNode == null
                        ? ClusterSpec.ofCount(defaults.cluster().size(), panic)
                        : hostsNode.value() instanceof List
                                ? new ClusterSpec(v.names(hostsNode, "cluster.hosts"), panic)
                                : ClusterSpec.ofCount(
                                        (int) v.integer(hostsNode, "cluster.hosts", 6, 1, ClusterSpec.MAX_HOSTS),
                                        panic));

        Located trafficNode = top.get("traffic");
        Map<String, Located> traffic = trafficNode == null ? Map.of() : v.map(trafficNode, "traffic", TRAFFIC);
        long rps =
                v.integer(traffic.get("rps"), "traffic.rps", defaults.traffic().rps(), 1, TrafficSpec.MAX_RPS);
        int clients = clients(v, traffic.get("clients"), defaults.traffic().clients());

        List<FaultSpec> faults = top.containsKey("faults")
                ? FaultsReader.read(v, top.get("faults"), clusterSpec, duration)
                : defaults.faults();

        OutlierDetectionConfig outlier = EnvoySettingsReader.outlierDetection(v, top.get("outlier_detection"));
        HealthCheckSpec health = EnvoySettingsReader.healthChecks(v, top.get("health_checks"));
        LoadSpec load = LoadReader.read(v, cluster, traffic, clusterSpec, duration);
        RoutingSpec routing = RoutingReader.read(v, cluster, traffic, clusterSpec);
        Scenario scenario;
        try {
            scenario = Scenario.builder()
                    .name(name)
                    .durationNanos(duration)
                    .seed(seed)
                    .cluster(clusterSpec)
                    .traffic(new TrafficSpec(rps, clients))
                    .faults(faults)
                    .outlierDetection(outlier)
                    .healthChecks(health)
                    .envoyVersion(version)
                    .load(load)
                    .routing(routing)
                    .build();
        } catch (InvalidConfigException e) {
            throw Values.errorShown(Values.find(root, e.key()), e.key(), e.value(), e.allowed());
        }
        return new Loaded(scenario, hostsNode != null);
    }

    /**
     * {@code traffic.clients}: how many callers share the traffic, each its own detector (a sidecar, a channel, a
     * gateway process); whether it exceeds the rate is checked with the rate.
     */
    static int clients(Values v, Located node, int fallback) {
        return (int) v.integer(node, "traffic.clients", fallback, 1, TrafficSpec.MAX_CLIENTS);
    }

    /** {@code envoy_version}: 1.40, 1.36.2 or v1.36.2 (a YAML number such as 1.36 is read as written). */
    public static EnvoyVersion envoyVersion(Located node) {
        if (node == null || node.value() == null) {
            return EnvoyVersion.DEFAULT;
        }
        Object value = node.value();
        if (value instanceof BigDecimal d && (Math.abs((long) d.scale()) > 16 || d.precision() > 16)) {
            // 1e1000000000 written out would be a billion digits: refused before any conversion
            throw versionError(node, Wording.describe(value), "a release such as 1.40 or 1.36.2");
        }
        String text = value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value);
        try {
            return EnvoyVersion.parse(text);
        } catch (InvalidConfigException e) {
            throw versionError(node, e.value(), e.allowed());
        }
    }

    /** A bad release: an option's value ({@code --envoy-version 1.99}) named by the option alone, else the key. */
    private static InputException versionError(Located node, String shown, String allowed) {
        boolean option = node.origin().startsWith("--") && !node.origin().contains(" ");
        return option
                ? Values.errorShown(null, node.origin(), shown, allowed)
                : Values.errorShown(node, "envoy_version", shown, allowed);
    }
}
