package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.routing.PriorityRouter;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.ArrayList;
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
            n.put("timeouts_retried", retry.retriesTimeout());
            sink.add(
                    Rule.ROUTE_RETRIES_HIDE_FAILURES,
                    Severity.NOTE,
                    retry.describe() + ": " + retried(retry) + " " + timeouts(retry),
                    n,
                    List.of(),
                    sink.target().line());
        }
    }

    /** Which failures the policy retries and what the caller and the detector see of them. */
    private static String retried(RetrySpec retry) {
        List<String> what = new ArrayList<>();
        if (retry.retriesResult(FaultResult.CONNECT_FAILED)) {
            what.add("refuses (connect failure)");
        }
        if (retry.retriesStatus(503)) {
            what.add("answers 503");
        }
        if (retry.retriesTimeout()) {
            what.add("does not answer within the per-try timeout");
        }
        if (what.isEmpty()) {
            return "a failing host's refusals, 503s and timeouts are not retried (retry_on " + retry.retryOnText()
                    + " covers none of them), so its callers see them.";
        }
        return "a request a failing host " + String.join(" or ", what) + " is retried"
                + (retry.previousHosts() ? " on another host" : "")
                + ", and its caller sees a failure only when every attempt fails; the detector still counts each"
                + " failed attempt (run reports both figures).";
    }

    /**
     * Whether a host that does not answer is hidden by the retries, as Envoy's router decides it
     * ({@code source/common/router/router.cc}): only a per-try timeout shorter than the route's timeout resets such a
     * try ({@code FilterUtility::finalTimeout}, {@code Filter::onPerTryTimeoutCommon}), and only {@code reset},
     * {@code 5xx} or {@code gateway-error} retries that reset ({@code wouldRetryFromReset}); without one the route's
     * timeout ends the request with no retry ({@code Filter::onResponseTimeout}).
     */
    private static String timeouts(RetrySpec retry) {
        long perTry = retry.perTryTimeoutNanos();
        long route = retry.routeTimeoutNanos();
        String routeWords =
                route == 0 ? "the route has no timeout" : "the route's timeout is " + Durations.format(route);
        if (retry.retriesTimeout()) {
            return "Timeouts are hidden too: per_try_timeout " + Durations.format(perTry) + " ("
                    + routeWords + ") resets a try that does not answer and it is retried, each such try costing"
                    + " its caller " + Durations.format(perTry) + " of waiting.";
        }
        String why;
        if (perTry == 0) {
            why = "with no per_try_timeout a host that does not answer holds the request "
                    + (route == 0
                            ? "until its caller gives up (the route has no timeout)"
                            : "until the route's timeout, " + Durations.format(route) + ", answers 504")
                    + ", and no retry is made";
        } else if (retry.effectivePerTryNanos() == 0) {
            why = "per_try_timeout " + Durations.format(perTry) + " is not shorter than the route's timeout, "
                    + Durations.format(route) + ", so Envoy drops it and the route's timeout answers 504 with no"
                    + " retry";
        } else {
            why = "per_try_timeout " + Durations.format(perTry) + " resets a try that does not answer, but retry_on "
                    + "has none of reset, 5xx and gateway-error, which retry that reset";
        }
        return "Timeouts are not hidden: " + why + ".";
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
