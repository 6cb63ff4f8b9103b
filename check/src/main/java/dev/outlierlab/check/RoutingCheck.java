package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.routing.PriorityRouter;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Routing findings: istiod's locality failover ({@link Rule#ISTIO_LOCALITY_FAILOVER}), worked out with the
 * simulator's {@link PriorityRouter} (Envoy's {@code recalculatePerPriorityState}) for the cluster's pods spread over
 * three zones and a caller in the first, and the retries a route adds ({@link Rule#ROUTE_RETRIES_HIDE_FAILURES}).
 */
final class RoutingCheck {
    /** The zones the failover example spreads the pods over. */
    private static final int ZONES = 3;

    private RoutingCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        RoutingSpec routing = sink.target().routing();
        if (routing.localityFailover()) {
            failover(routing, hosts, sink);
        }
        RetrySpec retry = routing.retries();
        if (retry != null && retry.numRetries() > 0) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("num_retries", (long) retry.numRetries());
            n.put("retry_on", retry.retryOnText());
            n.put("previous_hosts", retry.previousHosts());
            sink.add(
                    Rule.ROUTE_RETRIES_HIDE_FAILURES,
                    Severity.NOTE,
                    retry.describe() + ": a request a failing "
                            + "host refuses (connect failure)" + (retry.retriesStatus(503) ? " or answers 503" : "")
                            + " is retried" + (retry.previousHosts() ? " on another host" : "")
                            + ", and its caller sees a "
                            + "failure only when every attempt fails; the detector still counts each failed attempt (run "
                            + "reports both figures)",
                    n,
                    List.of(),
                    sink.target().line());
        }
    }

    private static void failover(RoutingSpec routing, Integer hosts, FindingSink sink) {
        int size = hosts != null && hosts >= ZONES ? hosts : 6;
        int local = (size + ZONES - 1) / ZONES;
        int[] priorities = new int[size];
        for (int h = local; h < size; h++) {
            priorities[h] = 1;
        }
        LoadBalancer balancer = new LoadBalancer(size, sink.target().panicThresholdPercent());
        PriorityRouter router =
                new PriorityRouter(routing, sink.target().panicThresholdPercent(), priorities, 0, 0, balancer);
        balancer.setEjected(0, true);
        int[] loads = router.healthyLoads();
        double[] shares = router.expectedShares();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("hosts", (long) size);
        n.put("zones", (long) ZONES);
        n.put("local_hosts", (long) local);
        n.put("local_priority_load_after_one_ejection", (long) loads[0]);
        n.put("spill_over_percent", (long) (100 - loads[0]));
        String example = size + " pods in " + ZONES + " zones"
                + (hosts == null || hosts < ZONES ? " (for example)" : "") + ", " + local
                + " in the caller's zone: while they are healthy that caller sends them all its "
                + "traffic; with one of them ejected, its zone keeps min(100, " + routing.overprovisioningFactor()
                + " x " + (local - 1) + " / " + local + ") = " + loads[0] + " %"
                + (local > 1
                        ? " (" + FindingSink.fmt(FindingSink.round(shares[1])) + " % to each remaining local pod)"
                        : "")
                + " and " + (100 - loads[0])
                + " % spills to the other zones (" + FindingSink.fmt(FindingSink.round(shares[size - 1]))
                + " % to each of their " + (size - local) + " pods)";
        sink.add(
                Rule.ISTIO_LOCALITY_FAILOVER,
                Severity.NOTE,
                "istiod's locality failover applies (the rule has "
                        + "outlierDetection; the mesh's localityLbSetting is on by default): each caller's endpoints are "
                        + "priorities by zone, its own first. With " + example + "; run --istio with cluster.zones and "
                        + "traffic.caller_zones simulates it",
                n,
                List.of(),
                sink.target().line());
    }
}
