package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.stage.StageMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Explains what a gateway configuration (profile gateway, docs/gateway.md) will do, as findings: the mode,
 * one endpoint, the statistical rule's bound with this many endpoints (Samuelson's inequality, as docs/gateway.md
 * explains for {@code run}), {@code min_requests} against the traffic each endpoint's window gets, ordered
 * routing, a hard trip of 1 and no fallbacks. Fixes are YAML in the file's own keys.
 */
final class GatewayChecker {
    /** The background error rate the hair-trigger numbers assume, as for Envoy's {@link HairTriggerCheck}. */
    static final double BACKGROUND_ERROR_RATE = HairTriggerCheck.BACKGROUND_ERROR_RATE;

    private GatewayChecker() {}

    /**
     * Adds the findings for one gateway configuration.
     *
     * @param endpoints the endpoint count ({@code --hosts}, else {@code cluster.hosts}), or null when unknown
     * @param rps       requests per second to the gateway, or null
     */
    static void check(GatewayTarget t, Integer endpoints, Long rps, FindingSink sink) {
        GatewayConfig g = t.gateway();
        if (g.mode() == StageMode.OFF) {
            sink.add(
                    GatewayRule.MODE_OFF,
                    Severity.WARNING,
                    "mode off: outcomes are not recorded and no endpoint is "
                            + "ejected or reported, so the other settings do nothing",
                    Map.of("mode", "off"),
                    List.of(new FixStyle.Change("gateway.mode", "shadow", "records would_eject, removes nothing")),
                    t.lineOf("gateway.mode"));
            return;
        }
        if (g.mode() == StageMode.SHADOW) {
            sink.add(
                    GatewayRule.MODE_SHADOW,
                    Severity.NOTE,
                    "mode shadow: the stage judges as in prod and records "
                            + "would_eject, but removes no endpoint: callers see every failure",
                    Map.of("mode", "shadow"),
                    List.of(new FixStyle.Change("gateway.mode", "prod", "once the would_eject records look right")),
                    t.lineOf("gateway.mode"));
        }
        if (endpoints != null && endpoints == 1) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("endpoints", 1L);
            sink.add(
                    GatewayRule.SINGLE_ENDPOINT,
                    Severity.WARNING,
                    "one endpoint: it has no peers to be compared with, "
                            + "and if the hard trip ejects it the guard keeps it in the list (it would be empty), so the stage "
                            + "does nothing. Pass --hosts N if the name stands for more",
                    n,
                    List.of(),
                    t.lineOf("cluster.hosts"));
            return;
        }
        statisticalRule(t, endpoints, sink);
        if (endpoints != null && rps != null) {
            minRequests(t, endpoints, rps, sink);
        }
        RoutingConfig r = t.routing();
        if (r.strategy() == RoutingStrategy.ORDERED && (endpoints == null || endpoints >= 2)) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("strategy", "ordered");
            if (endpoints != null) {
                n.put("endpoints", (long) endpoints);
            }
            n.put("fallbacks", (long) r.fallbacks());
            sink.add(
                    GatewayRule.ORDERED_STARVES_PEERS,
                    Severity.WARNING,
                    "routing ordered sends every request to the "
                            + "first endpoint; the second"
                            + (endpoints != null && endpoints == 2 ? "" : " and later ones")
                            + " get attempts only as fallbacks or while it is ejected, so they are not scored and the first has "
                            + "no peers: the statistical rule never fires, only the hard trip ejects",
                    n,
                    List.of(new FixStyle.Change(
                            "routing.strategy", "round_robin", "every endpoint gets traffic to be scored")),
                    t.lineOf("routing.strategy"));
        }
        if (g.consecutiveFailures() == 1) {
            double expected = Bernoulli.expectedRequestsToRun(BACKGROUND_ERROR_RATE, 1);
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_failures", 1L);
            n.put("background_error_rate_percent", BACKGROUND_ERROR_RATE * 100);
            n.put("expected_attempts_to_an_ejection", Math.round(expected));
            n.put("ejection_time_seconds", Durations.toSeconds(g.ejectionTimeNanos()));
            StringBuilder m = new StringBuilder("consecutive_failures 1 ejects an endpoint for "
                    + Durations.format(g.ejectionTimeNanos())
                    + " at its first failure, which healthy endpoints have too: "
                    + "with 1 % of attempts failing at random, one every " + Math.round(expected)
                    + " attempts on average");
            if (endpoints != null && rps != null) {
                double seconds = expected / (rps / (double) endpoints);
                n.put("seconds_at_rps_per_endpoint", FindingSink.round(seconds));
                m.append(" (")
                        .append(FindingSink.fmt(FindingSink.round(seconds)))
                        .append(" s at ")
                        .append(FindingSink.fmt(FindingSink.round(rps / (double) endpoints)))
                        .append(" requests per second to each endpoint)");
            }
            sink.add(
                    GatewayRule.HAIR_TRIGGER,
                    Severity.WARNING,
                    m.toString(),
                    n,
                    List.of(new FixStyle.Change("gateway.consecutive_failures", 3, "the gateway's default")),
                    t.lineOf("gateway.consecutive_failures"));
        }
        if (r.fallbacks() == 0 && (endpoints == null || endpoints >= 2)) {
            sink.add(
                    GatewayRule.NO_FALLBACKS,
                    Severity.NOTE,
                    "fallbacks 0: a failed attempt is the caller's failed "
                            + "request, so callers see every failure until an ejection; one fallback retries it on the next "
                            + "candidate at once",
                    Map.of("fallbacks", 0L),
                    List.of(new FixStyle.Change(
                            "routing.fallbacks", 1, "a failed attempt is retried on the next endpoint")),
                    t.lineOf("routing.fallbacks"));
        }
    }

    /** The smallest endpoint count at which peer_set all can eject with this factor: N - 1 > factor^2. */
    static int smallestEndpointsThatCanEject(double factor) {
        int n = 2;
        while (Math.sqrt(n - 1) <= factor) {
            n++;
        }
        return n;
    }

    /** The largest factor, in tenths, strictly below sqrt(N - 1): what still lets one endpoint of N be ejected. */
    static double largestFactorThatCanEject(int endpoints) {
        double bound = Math.sqrt(endpoints - 1);
        double tenths = Math.floor(bound * 10) / 10;
        return tenths < bound ? tenths : tenths - 0.1;
    }

    private static void statisticalRule(GatewayTarget t, Integer endpoints, FindingSink sink) {
        GatewayConfig g = t.gateway();
        if (g.peerSet() == PeerSet.OTHERS) {
            if (endpoints != null && endpoints == 2 && g.minStdevPercent() > 0) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("endpoints", 2L);
                n.put("peer_set", "others");
                n.put("min_stdev", g.minStdevPercent());
                sink.add(
                        GatewayRule.STATISTICAL_RULE_CANNOT_FIRE,
                        Severity.WARNING,
                        "2 endpoints, peer_set others: "
                                + "each is compared with its one peer, whose standard deviation is 0, below min_stdev "
                                + FindingSink.fmt(g.minStdevPercent())
                                + ": the statistical rule can never fire, so only the "
                                + "hard trip ejects",
                        n,
                        List.of(new FixStyle.Change(
                                "routing.fallbacks",
                                Math.max(1, t.routing().fallbacks()),
                                "two endpoints cannot be compared; retry on the other instead")),
                        t.lineOf("gateway.peer_set"));
            }
            return;
        }
        double factor = g.stdevFactor();
        int smallest = smallestEndpointsThatCanEject(factor);
        Map<String, Object> n = new LinkedHashMap<>();
        if (endpoints == null) {
            if (smallest <= 2) {
                return;
            }
            n.put("stdev_factor", factor);
            n.put("smallest_endpoints_that_can_eject", (long) smallest);
            sink.add(
                    GatewayRule.STATISTICAL_RULE_CANNOT_FIRE,
                    Severity.NOTE,
                    "stdev_factor " + FindingSink.fmt(factor)
                            + " with peer_set all can never fire among fewer than " + smallest
                            + " endpoints (no rate lies more "
                            + "than sqrt(N - 1) standard deviations from the mean of N); the file does not say how many there "
                            + "are: pass --hosts N",
                    n,
                    List.of(),
                    t.lineOf("gateway.stdev_factor"));
            return;
        }
        if (endpoints >= smallest) {
            return;
        }
        double bound = Math.sqrt(endpoints - 1);
        boolean tie = bound == factor;
        double largest = largestFactorThatCanEject(endpoints);
        n.put("endpoints", (long) endpoints);
        n.put("peer_set", "all");
        n.put("stdev_factor", factor);
        n.put("max_stdevs_from_mean", FindingSink.round(bound));
        n.put("smallest_endpoints_that_can_eject", (long) smallest);
        n.put("largest_factor_that_can_eject", largest);
        String m = endpoints + " endpoints, peer_set all: no endpoint can lie more than sqrt(" + (endpoints - 1)
                + ") = "
                + String.format(Locale.ROOT, "%.3f", bound) + " standard deviations below the mean of the " + endpoints
                + ", and stdev_factor is " + FindingSink.fmt(factor) + ": the statistical rule "
                + (tie
                        ? "fires only by a rounding tie (the " + (endpoints - 1) + " others exactly equal)"
                        : "can never fire")
                + ", so only the hard trip ejects. It can fire with " + smallest
                + " endpoints or more, or with stdev_factor " + FindingSink.fmt(largest) + " or less";
        sink.add(
                GatewayRule.STATISTICAL_RULE_CANNOT_FIRE,
                Severity.WARNING,
                m,
                n,
                List.of(new FixStyle.Change(
                        "gateway.stdev_factor",
                        FindingSink.fmt(largest),
                        "below sqrt(" + (endpoints - 1) + "); or run " + smallest + " endpoints")),
                t.lineOf("gateway.stdev_factor"));
    }

    private static void minRequests(GatewayTarget t, int endpoints, long rps, FindingSink sink) {
        GatewayConfig g = t.gateway();
        RoutingConfig r = t.routing();
        if (r.strategy() == RoutingStrategy.ORDERED) {
            return; // the peers get nothing at all: gateway-ordered-starves-peers says so
        }
        // the lightest endpoint's share of the requests: even for round robin, its weight's share for weighted
        long share = 1;
        long total = endpoints;
        if (r.strategy() == RoutingStrategy.WEIGHTED && !r.weights().isEmpty()) {
            share = r.weights().stream().mapToLong(Integer::longValue).min().orElse(1);
            total = r.weights().stream().mapToLong(Integer::longValue).sum();
        }
        double windowSeconds = g.windowNanos() / (double) Durations.SECOND;
        double perEndpoint = rps * windowSeconds * share / total / g.processes();
        if (perEndpoint >= g.minRequests()) {
            return;
        }
        long perEndpointFloor = (long) Math.floor(perEndpoint);
        long bucketSeconds = Math.max(1, g.bucketNanos() / Durations.SECOND);
        double neededSeconds = g.minRequests() * (double) total * g.processes() / (rps * (double) share);
        long neededWindow = (long) Math.ceil(neededSeconds / bucketSeconds) * bucketSeconds;
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("rps", rps);
        n.put("endpoints", (long) endpoints);
        n.put("processes", (long) g.processes());
        n.put("window_seconds", Durations.toSeconds(g.windowNanos()));
        n.put("attempts_per_endpoint_per_window", FindingSink.round(perEndpoint));
        n.put("min_requests", (long) g.minRequests());
        n.put("window_needed_seconds", neededWindow);
        String m = "min_requests " + g.minRequests() + " is never reached: at " + rps + " rps over " + endpoints
                + " endpoints" + (g.processes() > 1 ? " and " + g.processes() + " processes" : "") + ", "
                + (r.strategy() == RoutingStrategy.WEIGHTED ? "the lightest-weighted endpoint" : "each endpoint")
                + " gets " + FindingSink.fmt(FindingSink.round(perEndpoint)) + " attempts per "
                + Durations.format(g.windowNanos()) + " window, so no endpoint is scored and only the hard trip "
                + "ejects. It needs a window of " + neededWindow + " s or min_requests "
                + Math.max(1, perEndpointFloor);
        sink.add(
                GatewayRule.MIN_REQUESTS_UNREACHABLE,
                Severity.WARNING,
                m,
                n,
                List.of(new FixStyle.Change(
                        "gateway.window", neededWindow + "s", "or min_requests: " + Math.max(1, perEndpointFloor))),
                t.lineOf("gateway.min_requests"));
    }
}
