package dev.outlierlab.config.scenario;

import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.LocalityWeights;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The routing keys of a scenario ({@link RoutingSpec}): {@code cluster.lb_policy}, {@code cluster.choice_count},
 * {@code cluster.active_request_bias}, {@code cluster.overprovisioning_factor}, {@code cluster.fail_traffic_on_panic},
 * {@code cluster.priorities}, {@code cluster.zones}, {@code cluster.locality_failover}, {@code cluster.locality_weights}
 * (a mapping of zones to Envoy's {@code load_balancing_weight}: locality-weighted balancing), {@code traffic.caller_zones}
 * and {@code traffic.retries}. Absent, the scenario has the lab model's routing.
 */
final class RoutingReader {
    /** The routing keys of {@code cluster}. */
    static final Set<String> CLUSTER_KEYS = Set.of(
            "lb_policy",
            "choice_count",
            "active_request_bias",
            "overprovisioning_factor",
            "fail_traffic_on_panic",
            "priorities",
            "zones",
            "locality_failover",
            "locality_weights");
    /** The routing keys of {@code traffic}. */
    static final Set<String> TRAFFIC_KEYS = Set.of("caller_zones", "retries");

    private static final Set<String> RETRY = Set.of(
            "retry_on",
            "num_retries",
            "retriable_status_codes",
            "previous_hosts",
            "host_selection_retry_max_attempts",
            "per_try_timeout",
            "route_timeout");

    private RoutingReader() {}

    static RoutingSpec read(Values v, Map<String, Located> cluster, Map<String, Located> traffic, ClusterSpec hosts) {
        RoutingSpec none = RoutingSpec.NONE;
        Located policyNode = cluster.get("lb_policy");
        LbPolicy policy = none.lbPolicy();
        if (policyNode != null) {
            policy = policyNode.value() instanceof String s ? LbPolicy.byName(s) : null;
            if (policy == null) {
                throw Values.error(
                        policyNode,
                        "cluster.lb_policy",
                        policyNode.value(),
                        "round_robin, least_request or random (ring_hash, maglev and the others are read and not "
                                + "modelled)");
            }
        }
        int choices = (int) v.integer(cluster.get("choice_count"), "cluster.choice_count", 2, 2, 100);
        double bias = v.decimal(
                cluster.get("active_request_bias"),
                "cluster.active_request_bias",
                1.0,
                0,
                1000,
                "a number from 0 to 1000");
        int factor = (int) v.integer(
                cluster.get("overprovisioning_factor"),
                "cluster.overprovisioning_factor",
                RoutingSpec.DEFAULT_OVERPROVISIONING_FACTOR,
                1,
                100_000);
        boolean failOnPanic = v.bool(cluster.get("fail_traffic_on_panic"), "cluster.fail_traffic_on_panic", false);
        Map<String, Integer> priorities = new LinkedHashMap<>();
        perHost(v, cluster.get("priorities"), "cluster.priorities", hosts).forEach((h, p) -> {
            if (!(p instanceof Long l) || l < 0 || l > RoutingSpec.MAX_PRIORITY) {
                throw Values.error(
                        cluster.get("priorities"),
                        "cluster.priorities",
                        p,
                        "priorities from 0 to " + RoutingSpec.MAX_PRIORITY);
            }
            priorities.put(h, l.intValue());
        });
        Map<String, String> zones = new LinkedHashMap<>();
        perHost(v, cluster.get("zones"), "cluster.zones", hosts).forEach((h, z) -> zones.put(h, String.valueOf(z)));
        List<String> callerZones = new ArrayList<>();
        Located callerNode = traffic.get("caller_zones");
        if (callerNode != null && callerNode.value() instanceof String s) {
            callerZones.add(s);
        } else if (callerNode != null && callerNode.value() != null) {
            for (Located z : v.list(callerNode, "traffic.caller_zones")) {
                callerZones.add(String.valueOf(z.value()));
            }
        }
        boolean failover = v.bool(cluster.get("locality_failover"), "cluster.locality_failover", false);
        RetrySpec retries = retries(v, traffic.get("retries"));
        Located at =
                policyNode != null ? policyNode : cluster.getOrDefault("locality_failover", traffic.get("retries"));
        try {
            List<String> notes = new ArrayList<>();
            if (!policy.modelled()) {
                notes.add("lb_policy " + policy.name() + " is not modelled: the lab routes round robin");
            }
            if (failover && (zones.isEmpty() || callerZones.isEmpty())) {
                notes.add("cluster.locality_failover needs zones for the hosts (cluster.zones) and the callers "
                        + "(traffic.caller_zones); without them every endpoint is in one locality");
            }
            LocalityWeights weights = localityWeights(v, cluster.get("locality_weights"), zones);
            return RoutingSpec.builder()
                    .lbPolicy(policy)
                    .choiceCount(choices)
                    .activeRequestBias(bias)
                    .overprovisioningFactor(factor)
                    .failTrafficOnPanic(failOnPanic)
                    .priorities(priorities)
                    .zones(zones)
                    .callerZones(callerZones)
                    .localityFailover(failover)
                    .retries(retries)
                    .notModelled(notes)
                    .localityWeights(weights)
                    .build();
        } catch (InvalidConfigException e) {
            throw Values.errorShown(at, e.key(), e.value(), e.allowed());
        }
    }

    /**
     * {@code cluster.locality_weights}: each zone's {@code load_balancing_weight} (a zone not named has 0, as a locality
     * without a weight in Envoy); it needs {@code cluster.zones}, and names only zones the hosts are in.
     */
    static LocalityWeights localityWeights(Values v, Located node, Map<String, String> zones) {
        if (node == null || node.value() == null) {
            return LocalityWeights.NONE;
        }
        if (!(node.value() instanceof Map<?, ?> raw)) {
            throw Values.error(
                    node, "cluster.locality_weights", node.value(), "a mapping of zones to weights, e.g. {a: 2, b: 1}");
        }
        @SuppressWarnings("unchecked")
        Map<String, Located> m = (Map<String, Located>) raw;
        if (zones.isEmpty()) {
            throw Values.error(
                    node, "cluster.locality_weights", "a mapping", "zones for the hosts first (cluster.zones)");
        }
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, Located> e : m.entrySet()) {
            String key = "cluster.locality_weights." + e.getKey();
            if (!zones.containsValue(e.getKey())) {
                throw Values.error(
                        e.getValue(),
                        key,
                        e.getKey(),
                        "zones of cluster.zones: " + String.join(", ", new TreeSet<>(zones.values())));
            }
            out.put(e.getKey(), (int) v.integer(e.getValue(), key, 0, 0, 1_000_000));
        }
        return new LocalityWeights(true, out);
    }

    /**
     * {@code traffic.retries}: Envoy's {@code retry_policy} fields, with Envoy's defaults, and the route's
     * {@code timeout} as {@code route_timeout} (15 s unless set; 0 for none).
     */
    static RetrySpec retries(Values v, Located node) {
        if (node == null || node.value() == null) {
            return null;
        }
        if ("istio".equals(node.value())) {
            return RetrySpec.ISTIO_DEFAULT;
        }
        if ("none".equals(node.value())) {
            return new RetrySpec(
                    Set.of(), 0, List.of(), false, 0, "traffic.retries", 0, RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS);
        }
        Map<String, Located> m = v.map(node, "traffic.retries", RETRY);
        Set<String> on = new LinkedHashSet<>();
        Located onNode = m.get("retry_on");
        if (onNode != null && onNode.value() instanceof String s) {
            for (String part : s.split(",")) {
                if (!part.isBlank()) {
                    on.add(part.strip());
                }
            }
        } else if (onNode != null) {
            for (Located part : v.list(onNode, "traffic.retries.retry_on")) {
                on.add(String.valueOf(part.value()));
            }
        }
        int num = (int) v.integer(m.get("num_retries"), "traffic.retries.num_retries", 1, 0, RetrySpec.MAX_RETRIES);
        List<Integer> codes = new ArrayList<>();
        Located codesNode = m.get("retriable_status_codes");
        if (codesNode != null && codesNode.value() != null) {
            List<Located> items = v.list(codesNode, "traffic.retries.retriable_status_codes");
            for (int i = 0; i < items.size(); i++) {
                codes.add((int)
                        v.integer(items.get(i), "traffic.retries.retriable_status_codes[" + i + "]", 0, 100, 599));
            }
        }
        boolean previous = v.bool(m.get("previous_hosts"), "traffic.retries.previous_hosts", false);
        int attempts = (int) v.integer(
                m.get("host_selection_retry_max_attempts"),
                "traffic.retries.host_selection_retry_max_attempts",
                previous ? 1 : 0,
                0,
                RetrySpec.MAX_RETRIES);
        long perTry = v.duration(m.get("per_try_timeout"), "traffic.retries.per_try_timeout", 0, true);
        long route = v.duration(
                m.get("route_timeout"), "traffic.retries.route_timeout", RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS, true);
        try {
            return new RetrySpec(on, num, codes, previous, attempts, "traffic.retries", perTry, route);
        } catch (InvalidConfigException e) {
            throw Values.errorShown(onNode != null ? onNode : node, "traffic." + e.key(), e.value(), e.allowed());
        }
    }

    /** A list with one value per host, or a mapping of host names to values; the values as read. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> perHost(Values v, Located node, String key, ClusterSpec cluster) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (node == null || node.value() == null) {
            return out;
        }
        List<String> hosts = cluster.hosts();
        String allowed = "a list of " + hosts.size() + " values (one per host) or a mapping of host names to values";
        if (node.value() instanceof List<?> list) {
            if (list.size() != hosts.size()) {
                throw Values.errorShown(node, key, list.size() + " values", allowed);
            }
            for (int i = 0; i < list.size(); i++) {
                out.put(hosts.get(i), ((Located) list.get(i)).value());
            }
        } else if (node.value() instanceof Map<?, ?> map) {
            for (Map.Entry<String, Located> e : ((Map<String, Located>) map).entrySet()) {
                if (!hosts.contains(e.getKey())) {
                    throw Values.errorShown(e.getValue(), key, e.getKey(), "names of the cluster's hosts");
                }
                out.put(e.getKey(), e.getValue().value());
            }
        } else {
            throw Values.error(node, key, node.value(), allowed);
        }
        return out;
    }
}
