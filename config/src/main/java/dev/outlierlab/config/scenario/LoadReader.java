package dev.outlierlab.config.scenario;

import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RateStep;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the opt-in load keys of a scenario into a {@link LoadSpec}: {@code cluster.capacity},
 * {@code cluster.overload_response}, {@code cluster.weights}, {@code traffic.arrivals}, {@code traffic.steps},
 * and the fault kind {@code dead}. Each bad value is one message with the key, the value, the line and what is
 * allowed.
 */
final class LoadReader {
    private static final Set<String> STEP = Set.of("at", "rps");

    private LoadReader() {}

    static LoadSpec read(
            Values v, Map<String, Located> cluster, Map<String, Located> traffic, ClusterSpec hosts, long duration) {
        Map<String, Long> capacity = perHost(
                v,
                cluster.get("capacity"),
                "cluster.capacity",
                hosts,
                LoadSpec.MAX_CAPACITY_RPS,
                "requests per second");
        int status = 503;
        RequestResult result = null;
        Located overload = cluster.get("overload_response");
        if (overload != null) {
            if ("timeout".equals(overload.value())) {
                result = RequestResult.LOCAL_ORIGIN_TIMEOUT;
            } else if (overload.value() instanceof Long l && l >= 500 && l <= 599) {
                status = l.intValue();
            } else {
                throw Values.error(
                        overload,
                        "cluster.overload_response",
                        overload.value(),
                        "an HTTP status from 500 to 599, or timeout");
            }
        }
        Map<String, Long> weights =
                perHost(v, cluster.get("weights"), "cluster.weights", hosts, LoadSpec.MAX_WEIGHT, "weights");
        Arrivals arrivals = Arrivals.EVEN;
        Located arrivalsNode = traffic.get("arrivals");
        if (arrivalsNode != null) {
            if ("even".equals(arrivalsNode.value())) {
                arrivals = Arrivals.EVEN;
            } else if ("poisson".equals(arrivalsNode.value())) {
                arrivals = Arrivals.POISSON;
            } else {
                throw Values.error(arrivalsNode, "traffic.arrivals", arrivalsNode.value(), "even or poisson");
            }
        }
        List<RateStep> steps = new ArrayList<>();
        Located stepsNode = traffic.get("steps");
        if (stepsNode != null && stepsNode.value() != null) {
            List<Located> items = v.list(stepsNode, "traffic.steps");
            long previous = -1;
            for (int i = 0; i < items.size(); i++) {
                String key = "traffic.steps[" + i + "]";
                Map<String, Located> m = v.map(items.get(i), key, STEP);
                for (String needed : List.of("at", "rps")) {
                    if (m.get(needed) == null) {
                        throw Values.errorShown(
                                items.get(i),
                                key + "." + needed,
                                "nothing",
                                "a step has both at (a time) and rps (requests per second from 0)");
                    }
                }
                long at = v.duration(m.get("at"), key + ".at", 0, true);
                if (at <= previous || at >= duration) {
                    throw Values.error(
                            m.get("at"),
                            key + ".at",
                            m.get("at").value(),
                            "a time before the duration" + (previous < 0 ? "" : " and after the step before"));
                }
                long rps = v.integer(m.get("rps"), key + ".rps", 0, 0, TrafficSpec.MAX_RPS);
                steps.add(new RateStep(at, rps));
                previous = at;
            }
        }
        final int st = status;
        final RequestResult rs = result;
        final Arrivals ar = arrivals;
        return v.guard(
                cluster.getOrDefault("capacity", stepsNode),
                "cluster",
                () -> new LoadSpec(capacity, st, rs, weights, ar, steps));
    }

    /**
     * A fault's {@code kind}: {@code errors} (the default), {@code dead}, a host that refuses every connection and
     * every probe (refused, {@code HealthCheckFailure.REFUSED}), or {@code degraded}, a host that answers the requests
     * the fault picks with 200 and {@code x-envoy-degraded} (read by Envoy 1.38's {@code detect_degraded_hosts}). A
     * dead fault takes none of error_rate, status, result, fails_health_check, pattern, burst_length or latency; a degraded one
     * none of status, result or fails_health_check.
     */
    static boolean deadFault(Values v, Map<String, Located> fault, String key) {
        String kind = kind(v, fault, key);
        if (!"dead".equals(kind)) {
            return false;
        }
        refuse(
                fault,
                key,
                List.of("error_rate", "status", "result", "fails_health_check", "pattern", "burst_length", "latency"),
                "nothing with kind: dead (a dead host fails every request and probe to connect); remove it");
        return true;
    }

    /** Whether the fault is {@code kind: degraded} (see {@link #deadFault}). */
    static boolean degradedFault(Values v, Map<String, Located> fault, String key) {
        if (!"degraded".equals(kind(v, fault, key))) {
            return false;
        }
        refuse(
                fault,
                key,
                List.of("status", "result", "fails_health_check"),
                "nothing with kind: degraded (its requests are answered 200 with x-envoy-degraded); remove it");
        return true;
    }

    private static String kind(Values v, Map<String, Located> fault, String key) {
        Located kind = fault.get("kind");
        if (kind == null || "errors".equals(kind.value())) {
            return "errors";
        }
        if (!"dead".equals(kind.value()) && !"degraded".equals(kind.value())) {
            throw Values.error(
                    kind,
                    key + ".kind",
                    kind.value(),
                    "errors (requests fail at error_rate), dead (every request and probe fails to connect) or "
                            + "degraded (error_rate of the requests are answered 200 with x-envoy-degraded)");
        }
        return (String) kind.value();
    }

    private static void refuse(Map<String, Located> fault, String key, List<String> keys, String allowed) {
        for (String other : keys) {
            if (fault.containsKey(other)) {
                throw Values.error(
                        fault.get(other), key + "." + other, fault.get(other).value(), allowed);
            }
        }
    }

    /** A number for every host, a list with one number per host, or a mapping of host names to numbers. */
    @SuppressWarnings("unchecked")
    private static Map<String, Long> perHost(
            Values v, Located node, String key, ClusterSpec cluster, long max, String what) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (node == null || node.value() == null) {
            return out;
        }
        List<String> hosts = cluster.hosts();
        Object value = node.value();
        String allowed = "a whole number from 1 to " + max + " for every host, a list of " + hosts.size()
                + " such numbers (one per host) or a mapping of host names to " + what;
        if (value instanceof Long) {
            long n = v.integer(node, key, 0, 1, max);
            hosts.forEach(h -> out.put(h, n));
        } else if (value instanceof List<?> list) {
            if (list.size() != hosts.size()) {
                throw Values.errorShown(node, key, list.size() + " values", allowed);
            }
            for (int i = 0; i < list.size(); i++) {
                out.put(hosts.get(i), v.integer((Located) list.get(i), key + "[" + i + "]", 0, 1, max));
            }
        } else if (value instanceof Map<?, ?> map) {
            Set<String> known = new HashSet<>(hosts);
            for (Map.Entry<String, Located> e : ((Map<String, Located>) map).entrySet()) {
                if (!known.contains(e.getKey())) {
                    throw Values.error(
                            e.getValue(),
                            key + "." + e.getKey(),
                            e.getValue().value(),
                            "host names of the cluster as keys (" + e.getKey() + " is not one)");
                }
                out.put(e.getKey(), v.integer(e.getValue(), key + "." + e.getKey(), 0, 1, max));
            }
        } else {
            throw Values.error(node, key, value, allowed);
        }
        return out;
    }
}
