package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a scenario of {@code profile: gateway} (docs/gateway.md): the lab model's name,
 * duration, seed, cluster hosts, traffic and faults, plus the {@code gateway:} and {@code routing:}
 * sections. Envoy's settings ({@code outlier_detection}, {@code health_checks},
 * {@code cluster.panic_threshold}) are an error here, as gateway settings are in an Envoy scenario. Without
 * {@code faults}, the lab's default fault (33 % from 30 s to 240 s) hits the first endpoint, whatever its
 * name. Each bad value gives one message with the key, the value, the line and what is allowed.
 */
final class GatewayScenarioReader {
    static final Set<String> TOP =
            Set.of("name", "duration", "seed", "profile", "cluster", "traffic", "faults", "gateway", "routing");
    /** Envoy-only keys, refused in a gateway scenario with a message that says why. */
    static final Set<String> ENVOY_ONLY = Set.of("outlier_detection", "health_checks");
    /** Gateway-only keys, refused in an Envoy scenario with a message that says why. */
    static final Set<String> GATEWAY_ONLY = Set.of("gateway", "routing");

    private static final Set<String> CLUSTER = Set.of("hosts");
    private static final Set<String> GATEWAY = Set.of(
            "mode",
            "window",
            "bucket",
            "min_requests",
            "stdev_factor",
            "peer_set",
            "min_stdev",
            "consecutive_failures",
            "ejection_time",
            "processes");
    private static final Set<String> ROUTING = Set.of("strategy", "weights", "fallbacks");

    private GatewayScenarioReader() {}

    /** The message for one of Envoy's keys in a gateway scenario. */
    static InputException envoyKey(Located at, String key) {
        return new InputException(at.origin() + ": " + key + " is Envoy's (profile: envoy) setting, but this scenario's"
                + " profile is gateway; remove it, or use profile: envoy");
    }

    /** The message for one of the gateway's keys in an Envoy scenario. */
    static InputException gatewayKey(Located at, String key) {
        return new InputException(at.origin() + ": " + key + " is the gateway profile's setting, but this scenario's"
                + " profile is envoy; add profile: gateway to use it, or remove it");
    }

    static GatewayScenario build(Located root, Values v, Map<String, Located> top) {
        for (String key : ENVOY_ONLY) {
            if (top.containsKey(key)) {
                throw envoyKey(top.get(key), key);
            }
        }
        v.map(root, "", TOP);
        GatewayScenario defaults = GatewayScenario.defaults();
        String name = v.text(top.get("name"), "name", defaults.name());
        long duration = v.duration(top.get("duration"), "duration", defaults.durationNanos(), false);
        long seed = v.integer(top.get("seed"), "seed", defaults.seed(), Long.MIN_VALUE, Long.MAX_VALUE);

        Located clusterNode = top.get("cluster");
        if (clusterNode != null && clusterNode.value() instanceof Map<?, ?> m && m.containsKey("panic_threshold")) {
            throw envoyKey((Located) m.get("panic_threshold"), "cluster.panic_threshold");
        }
        Map<String, Located> cluster = clusterNode == null ? Map.of() : v.map(clusterNode, "cluster", CLUSTER);
        Located hostsNode = cluster.get("hosts");
        ClusterSpec hosts = v.guard(
                hostsNode,
                "cluster.hosts",
                () -> hostsNode == null
                        ? ClusterSpec.ofCount(defaults.endpoints().size(), 0)
                        : hostsNode.value() instanceof List
                                ? new ClusterSpec(v.names(hostsNode, "cluster.hosts"), 0)
                                : ClusterSpec.ofCount(
                                        (int) v.integer(hostsNode, "cluster.hosts", 6, 1, ClusterSpec.MAX_HOSTS), 0));

        Located trafficNode = top.get("traffic");
        Map<String, Located> traffic =
                trafficNode == null ? Map.of() : v.map(trafficNode, "traffic", Set.of("rps", "clients"));
        long rps =
                v.integer(traffic.get("rps"), "traffic.rps", defaults.traffic().rps(), 1, TrafficSpec.MAX_RPS);
        Located clientsNode = traffic.get("clients");

        List<FaultSpec> faults = top.containsKey("faults")
                ? FaultsReader.read(v, top.get("faults"), hosts, duration)
                : defaults.faults().stream()
                        .map(f -> f.withHosts(hosts.hosts().subList(0, 1)))
                        .toList();
        GatewayConfig gateway =
                withClients(v, readGateway(v, root, top.get("gateway")), clientsNode, top.get("gateway"));
        RoutingConfig routing = readRouting(v, root, top.get("routing"));
        try {
            return new GatewayScenario(
                    name, duration, seed, hosts.hosts(), new TrafficSpec(rps), faults, gateway, routing);
        } catch (InvalidConfigException e) {
            throw Values.errorShown(Values.find(root, e.key()), e.key(), e.value(), e.allowed());
        }
    }

    private static GatewayConfig readGateway(Values v, Located root, Located node) {
        GatewayConfig d = GatewayConfig.defaults();
        Map<String, Located> g = node == null || node.value() == null ? Map.of() : v.map(node, "gateway", GATEWAY);
        Located modeNode = g.get("mode");
        StageMode mode = modeNode == null
                ? d.mode()
                : Boolean.FALSE.equals(modeNode.value())
                        ? StageMode.OFF
                        : v.guard(
                                modeNode,
                                "gateway.mode",
                                () -> StageMode.parse("gateway.mode", modeText(modeNode.value())));
        long window = v.duration(g.get("window"), "gateway.window", d.windowNanos(), false);
        long bucket = v.duration(g.get("bucket"), "gateway.bucket", d.bucketNanos(), false);
        int minRequests =
                (int) v.integer(g.get("min_requests"), "gateway.min_requests", d.minRequests(), 1, Integer.MAX_VALUE);
        double factor = v.decimal(
                g.get("stdev_factor"),
                "gateway.stdev_factor",
                d.stdevFactor(),
                0,
                1_000,
                "a number from 0 to 1000, such as 2.0");
        Located peerNode = g.get("peer_set");
        PeerSet peers = peerNode == null
                ? d.peerSet()
                : v.guard(
                        peerNode,
                        "gateway.peer_set",
                        () -> PeerSet.parse("gateway.peer_set", String.valueOf(peerNode.value())));
        double minStdev = v.percentDecimal(
                g.get("min_stdev"),
                "gateway.min_stdev",
                d.minStdevPercent(),
                0,
                100,
                "percentage points from 0 to 100, such as 1.0");
        int consecutive = (int) v.integer(
                g.get("consecutive_failures"),
                "gateway.consecutive_failures",
                d.consecutiveFailures(),
                0,
                Integer.MAX_VALUE);
        long ejection = v.duration(g.get("ejection_time"), "gateway.ejection_time", d.ejectionTimeNanos(), false);
        int processes =
                (int) v.integer(g.get("processes"), "gateway.processes", d.processes(), 1, GatewayConfig.MAX_PROCESSES);
        try {
            return new GatewayConfig(
                    mode, window, bucket, minRequests, factor, peers, minStdev, consecutive, ejection, processes);
        } catch (InvalidConfigException e) {
            throw Values.errorShown(Values.find(root, e.key()), e.key(), e.value(), e.allowed());
        }
    }

    /**
     * {@code traffic.clients} in a gateway scenario is {@code gateway.processes} under its common name (each
     * process is a caller with its own detector); both may be given only with the same value.
     */
    private static GatewayConfig withClients(
            Values v, GatewayConfig gateway, Located clientsNode, Located gatewayNode) {
        if (clientsNode == null) {
            return gateway;
        }
        int clients = (int) v.integer(clientsNode, "traffic.clients", 1, 1, GatewayConfig.MAX_PROCESSES);
        boolean processesGiven =
                gatewayNode != null && gatewayNode.value() instanceof Map<?, ?> g && g.containsKey("processes");
        if (processesGiven && gateway.processes() != clients) {
            throw Values.error(
                    clientsNode,
                    "traffic.clients",
                    clientsNode.value(),
                    "the same number as "
                            + "gateway.processes (" + gateway.processes() + "), which is the same thing: each gateway "
                            + "process is a caller with its own detector; give one of them");
        }
        return new GatewayConfig(
                gateway.mode(),
                gateway.windowNanos(),
                gateway.bucketNanos(),
                gateway.minRequests(),
                gateway.stdevFactor(),
                gateway.peerSet(),
                gateway.minStdevPercent(),
                gateway.consecutiveFailures(),
                gateway.ejectionTimeNanos(),
                clients);
    }

    /** YAML 1.1 reads an unquoted {@code off} as false, which is the mode off; any other value is shown as written. */
    private static String modeText(Object value) {
        return value instanceof String text ? text : Wording.describe(value);
    }

    private static RoutingConfig readRouting(Values v, Located root, Located node) {
        RoutingConfig d = RoutingConfig.defaults();
        Map<String, Located> r = node == null || node.value() == null ? Map.of() : v.map(node, "routing", ROUTING);
        Located strategyNode = r.get("strategy");
        RoutingStrategy strategy = strategyNode == null
                ? d.strategy()
                : v.guard(
                        strategyNode,
                        "routing.strategy",
                        () -> RoutingStrategy.parse("routing.strategy", String.valueOf(strategyNode.value())));
        List<Integer> weights = new ArrayList<>();
        Located weightsNode = r.get("weights");
        if (weightsNode != null && weightsNode.value() != null) {
            List<Located> items = v.list(weightsNode, "routing.weights");
            for (int i = 0; i < items.size(); i++) {
                weights.add(
                        (int) v.integer(items.get(i), "routing.weights[" + i + "]", 1, 1, RoutingConfig.MAX_WEIGHT));
            }
        }
        int fallbacks = (int) v.integer(r.get("fallbacks"), "routing.fallbacks", d.fallbacks(), 0, 1_000_000);
        try {
            return new RoutingConfig(strategy, weights, fallbacks);
        } catch (InvalidConfigException e) {
            throw Values.errorShown(Values.find(root, e.key()), e.key(), e.value(), e.allowed());
        }
    }
}
