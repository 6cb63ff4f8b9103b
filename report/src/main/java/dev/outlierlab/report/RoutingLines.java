package dev.outlierlab.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.sim.HostTally;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.routing.LocalityPriority;
import dev.outlierlab.sim.routing.PriorityRouter;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * What a run's reports say about routing ({@link RoutingSpec}), in text and JSON: the balancer policy, each caller
 * zone's priority levels and the shares Envoy's priority arithmetic gives them (with nothing ejected, and with the
 * first faulty host ejected), the retry policy, what the configuration set that the lab reads past; and, from the
 * run, the upstream attempts beside the callers' requests and the attempts per zone. A run without routing keys
 * prints none of it.
 */
public final class RoutingLines {
    private RoutingLines() {}

    /** The pick rule for the traffic line, e.g. "least request (2 random choices)"; null for the lab's round robin. */
    static String pickRule(Scenario s) {
        RoutingSpec r = s.routing();
        if (!r.isRouted()) {
            return null;
        }
        String policy = switch (r.lbPolicy().modelled() ? r.lbPolicy() : LbPolicy.ROUND_ROBIN) {
            case LEAST_REQUEST ->
                "least request (" + r.choiceCount() + " random choices; every response is "
                        + "immediate, so no host has an active request and the first choice is taken)";
            case RANDOM -> "random";
            default -> "round-robin";
        };
        return policy + (r.needsRouter() ? " within Envoy's priority levels" : "");
    }

    /** The Inputs lines: priorities and their shares per caller zone, retries, and what is not modelled. */
    static void inputs(Scenario s, BiConsumer<String, String> line) {
        RoutingSpec r = s.routing();
        if (!r.isRouted()) {
            return;
        }
        List<String> hosts = s.cluster().hosts();
        if (r.needsRouter()) {
            String how = r.failsOverByZone()
                    ? "by each caller's zone (istiod's locality failover: the rule has "
                            + "outlierDetection and the mesh's localityLbSetting is on)"
                    : "as the cluster sets them";
            List<String> zones = callerZones(s);
            for (int z = 0; z < zones.size(); z++) {
                int caller = firstCallerIn(s, zones.get(z));
                int[] prio = LocalityPriority.forCaller(r, hosts, caller);
                StringBuilder text = new StringBuilder(
                        zones.size() > 1 || r.failsOverByZone() ? "callers in " + zones.get(z) + ": " : "");
                text.append(levels(prio, hosts)).append(z == 0 ? "; " + how : "");
                line.accept(z == 0 ? "priorities" : "", text.toString());
                String ejected = firstFaultyHost(s);
                if (ejected != null) {
                    LoadBalancer balancer =
                            new LoadBalancer(hosts.size(), s.cluster().panicThresholdPercent());
                    PriorityRouter router = PriorityRouter.forCaller(
                            r, s.cluster().panicThresholdPercent(), hosts, caller, 0, balancer);
                    balancer.setEjected(hosts.indexOf(ejected), true);
                    line.accept("", "  " + ejectedText(ejected, router, r, hosts));
                }
            }
            if (r.weighsLocalities()) {
                List<String> parts = new ArrayList<>();
                new TreeMap<>(zonesOf(s))
                        .forEach((z, n) ->
                                parts.add(z + " " + r.localityWeights().weightOf(z)));
                line.accept(
                        "localities",
                        "weighted (locality_weighted_lb_config): " + String.join(", ", parts)
                                + "; within a priority each locality takes its weight x min(1, factor x healthy /"
                                + " hosts), a locality without a weight nothing");
            }
            if (r.failTrafficOnPanic()) {
                line.accept("", "fail_traffic_on_panic: a priority in panic routes to no host (every request fails)");
            }
        }
        RetrySpec retry = r.retries();
        if (retry != null) {
            line.accept(
                    "retries",
                    retry.numRetries() == 0
                            ? "none (" + retry.origin() + ")"
                            : retry.describe() + "; every attempt at the request's send time");
        }
        for (String note : r.notModelled()) {
            line.accept("not modelled", note);
        }
    }

    /** The Results lines: upstream attempts beside the callers' requests, and the attempts per zone. */
    static void results(RunResult result, BiConsumer<String, String> line) {
        Scenario s = result.scenario();
        if (!changesTraffic(s)) {
            return;
        }
        RunSummary sum = result.summary();
        line.accept(
                "upstream",
                Numbers.count(sum.upstreamAttempts()) + " attempts to hosts, "
                        + Numbers.count(sum.upstreamFailed()) + " failed (what the detectors see); "
                        + Numbers.count(sum.retries())
                        + " retries; " + Numbers.count(sum.failed()) + " requests failed for their callers"
                        + (sum.slowRequests() == 0
                                ? ""
                                : "; " + Numbers.count(sum.slowRequests())
                                        + " answered only after waiting for a retried attempt (slow), "
                                        + Numbers.one(sum.slowNanos() / 1e9 / sum.slowRequests()) + " s each"));
        Map<String, Long> zones = zoneAttempts(result);
        if (!zones.isEmpty()) {
            long total = zones.values().stream().mapToLong(Long::longValue).sum();
            List<String> parts = new ArrayList<>();
            zones.forEach((z, n) -> parts.add(z + " " + Numbers.one(total == 0 ? 0 : n * 100.0 / total) + " %"));
            line.accept(
                    "zones",
                    "attempts by the hosts' zone: " + String.join(", ", parts)
                            + (s.routing().callerZones().isEmpty()
                                    ? ""
                                    : " (callers in " + String.join(", ", callerZones(s)) + ")"));
        }
    }

    /**
     * Whether a run's traffic differs from the lab model's one round robin (another policy, priorities, zones with
     * failover, a factor, fail_traffic_on_panic, or a retry policy): only then do the reports gain the upstream
     * figures, so that a configuration that sets nothing of the kind gives the bytes it always did.
     */
    static boolean changesTraffic(Scenario s) {
        return s.routing().needsRouter();
    }

    /**
     * The summary's additions of a routed run: upstream attempts, their failures and the retries; the slow requests
     * and their wait in all when a retried attempt made any wait.
     */
    static void summary(RunResult result, ObjectNode summary) {
        if (!changesTraffic(result.scenario())) {
            return;
        }
        RunSummary sum = result.summary();
        summary.put("upstream_attempts", sum.upstreamAttempts());
        summary.put("upstream_failed", sum.upstreamFailed());
        summary.put("retries", sum.retries());
        if (sum.slowRequests() > 0) {
            summary.put("slow_requests", sum.slowRequests());
            summary.put("slow_wait_seconds", sum.slowNanos() / 1e9);
        }
    }

    /** The {@code routing} object at the top of a routed run's JSON. */
    static void json(RunResult result, ObjectNode root) {
        Scenario s = result.scenario();
        RoutingSpec r = s.routing();
        if (!changesTraffic(s)) {
            return;
        }
        ObjectNode routing = root.putObject("routing");
        routing.put("lb_policy", r.lbPolicy().name());
        routing.put("modelled", r.lbPolicy().modelled());
        routing.put("overprovisioning_factor", r.overprovisioningFactor());
        routing.put("fail_traffic_on_panic", r.failTrafficOnPanic());
        routing.put("locality_failover", r.failsOverByZone());
        if (r.retries() != null) {
            routing.put(
                    "retries",
                    r.retries().numRetries() == 0
                            ? "none (" + r.retries().origin() + ")"
                            : r.retries().describe());
        }
        callerViews(s, routing.putArray("callers"));
        ObjectNode zones = routing.putObject("zone_attempts");
        zoneAttempts(result).forEach(zones::put);
        ObjectNode hostAttempts = routing.putObject("host_attempts");
        for (HostTally t : result.hosts()) {
            hostAttempts.put(t.host(), t.requests());
        }
        ArrayNode notes = routing.putArray("not_modelled");
        r.notModelled().forEach(notes::add);
    }

    /**
     * Each caller zone's view, as the text's {@code priorities} lines give it: its hosts' priority levels and, with
     * the first faulty host ejected, each priority's healthy load (Envoy's {@code recalculatePerPriorityState}), its
     * panic, and each host's expected share of that caller's requests, with the sentence the text report prints.
     */
    private static void callerViews(Scenario s, ArrayNode out) {
        RoutingSpec r = s.routing();
        List<String> hosts = s.cluster().hosts();
        String ejected = firstFaultyHost(s);
        for (String zone : callerZones(s)) {
            int caller = firstCallerIn(s, zone);
            int[] prio = LocalityPriority.forCaller(r, hosts, caller);
            ObjectNode view = out.addObject();
            view.put("zone", zone);
            view.put("caller", caller);
            ObjectNode byHost = view.putObject("priorities");
            for (int h = 0; h < hosts.size(); h++) {
                byHost.put(hosts.get(h), prio[h]);
            }
            if (ejected == null) {
                continue;
            }
            LoadBalancer balancer = new LoadBalancer(hosts.size(), s.cluster().panicThresholdPercent());
            PriorityRouter router =
                    PriorityRouter.forCaller(r, s.cluster().panicThresholdPercent(), hosts, caller, 0, balancer);
            balancer.setEjected(hosts.indexOf(ejected), true);
            view.put("ejected", ejected);
            ArrayNode loads = view.putArray("healthy_loads");
            for (int l : router.healthyLoads()) {
                loads.add(l);
            }
            ArrayNode panics = view.putArray("panic");
            for (boolean p : router.panics()) {
                panics.add(p);
            }
            ObjectNode shares = view.putObject("shares");
            double[] expected = router.expectedShares();
            for (int h = 0; h < hosts.size(); h++) {
                shares.put(hosts.get(h), Math.round(expected[h] * 1000) / 1000.0);
            }
            view.put("text", ejectedText(ejected, router, r, hosts));
        }
    }

    private static String ejectedText(String ejected, PriorityRouter router, RoutingSpec r, List<String> hosts) {
        return "with " + ejected + " ejected: " + loads(router) + ", so "
                + shares(router.expectedShares(), hosts)
                + " (healthy share x overprovisioning factor " + r.overprovisioningFactor()
                + " %, the rest spills to the next priority)";
    }

    /** Each zone of the hosts with its host count. */
    private static Map<String, Integer> zonesOf(Scenario s) {
        Map<String, Integer> out = new TreeMap<>();
        for (String h : s.cluster().hosts()) {
            String z = s.routing().zones().get(h);
            if (z != null) {
                out.merge(z, 1, Integer::sum);
            }
        }
        return out;
    }

    private static Map<String, Long> zoneAttempts(RunResult result) {
        Map<String, String> zones = result.scenario().routing().zones();
        Map<String, Long> out = new TreeMap<>();
        if (zones.isEmpty()) {
            return out;
        }
        for (HostTally t : result.hosts()) {
            out.merge(zones.getOrDefault(t.host(), "(none)"), t.requests(), Long::sum);
        }
        return out;
    }

    private static List<String> callerZones(Scenario s) {
        List<String> out = new ArrayList<>();
        int clients = s.traffic().clients();
        for (int c = 0; c < clients && c < s.routing().callerZones().size() + 1; c++) {
            String z = s.routing().callerZone(c);
            String name = z == null ? "all" : z;
            if (!out.contains(name)) {
                out.add(name);
            }
        }
        return out;
    }

    private static int firstCallerIn(Scenario s, String zone) {
        for (int c = 0; c < s.traffic().clients(); c++) {
            String z = s.routing().callerZone(c);
            if (z == null || z.equals(zone)) {
                return c;
            }
        }
        return 0;
    }

    private static String firstFaultyHost(Scenario s) {
        return s.faults().isEmpty() || s.faults().get(0).hosts().isEmpty()
                ? null
                : s.faults().get(0).hosts().get(0);
    }

    private static String levels(int[] prio, List<String> hosts) {
        Map<Integer, List<String>> by = new TreeMap<>();
        for (int h = 0; h < prio.length; h++) {
            by.computeIfAbsent(prio[h], k -> new ArrayList<>()).add(hosts.get(h));
        }
        List<String> parts = new ArrayList<>();
        by.forEach((p, hs) -> parts.add("P" + p + " "
                + (hs.size() > 3
                        ? hs.get(0) + " .. " + hs.get(hs.size() - 1) + " (" + hs.size() + ")"
                        : String.join(", ", hs))));
        return String.join(", ", parts);
    }

    private static String loads(PriorityRouter router) {
        int[] healthy = router.healthyLoads();
        boolean[] panic = router.panics();
        List<String> parts = new ArrayList<>();
        for (int p = 0; p < healthy.length; p++) {
            parts.add("P" + p + " " + healthy[p] + " %" + (panic[p] ? " (in panic)" : ""));
        }
        return String.join(", ", parts);
    }

    private static String shares(double[] shares, List<String> hosts) {
        Map<String, List<String>> byShare = new LinkedHashMap<>();
        for (int h = 0; h < shares.length; h++) {
            if (shares[h] > 0) {
                byShare.computeIfAbsent(Numbers.one(shares[h]) + " %", k -> new ArrayList<>())
                        .add(hosts.get(h));
            }
        }
        List<String> parts = new ArrayList<>();
        byShare.forEach((share, hs) -> parts.add(
                (hs.size() == 1 ? hs.get(0) : hs.size() + " hosts") + " " + share + (hs.size() == 1 ? "" : " each")));
        return parts.isEmpty() ? "no host takes traffic" : String.join(", ", parts);
    }
}
