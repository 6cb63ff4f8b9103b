package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The built-in suite, sized to the cluster: every scenario has the cluster's hosts and rate (and callers), a healthy
 * warm-up of 30 s, the fault from 30 s to 240 s (the default scenario's window) and a recovery to 300 s, with random failure patterns (each request
 * fails on its own draw, from the seed). The healthy hosts fail at the pool's base error rate while the fault is
 * active when one is given (the first fault covering a host decides, so a failing host keeps its own rate). A latency-only slow host is listed but not simulated: without errors, passive detection has nothing to
 * count ({@link #NOT_DETECTABLE}). With an active health check (the cluster's own), every scenario runs with it: a
 * host that fails every request fails its probes the same way (a 503 status, a refused connection, a timeout), a
 * host failing part of its requests passes them, so a passing probe can return a host the detector ejected.
 */
public final class DefaultSuite {
    static final long S = Durations.SECOND;
    static final long START = 30 * S;
    static final long END = 240 * S;
    static final long DURATION = 300 * S;

    /** Scenarios that no outlier setting can catch, with the reason (reported, not simulated). */
    public static final Map<String, String> NOT_DETECTABLE = Map.of(
            "slow-host-latency",
            "a host that answers slowly but without errors: passive outlier detection counts errors, not latency, so no "
                    + "setting ejects it (a client timeout turns slowness into errors: see slow-host-timeouts)");

    private final int hosts;
    private final long rps;
    private final int clients;
    private final long baseErrorPpm;
    private final HealthCheckSpec healthChecks;

    /**
     * @param baseErrorPpm the healthy pool's error rate in parts per million (0: healthy hosts never fail)
     */
    public DefaultSuite(int hosts, long rps, int clients, long baseErrorPpm) {
        this(hosts, rps, clients, baseErrorPpm, null);
    }

    /**
     * @param baseErrorPpm the healthy pool's error rate in parts per million (0: healthy hosts never fail)
     * @param healthChecks the cluster's active health check, or null for none
     */
    public DefaultSuite(int hosts, long rps, int clients, long baseErrorPpm, HealthCheckSpec healthChecks) {
        this.hosts = hosts;
        this.rps = rps;
        this.clients = clients;
        this.baseErrorPpm = baseErrorPpm;
        this.healthChecks = healthChecks;
    }

    public List<SuiteScenario> scenarios() {
        List<SuiteScenario> out = new ArrayList<>();
        out.add(oneHost("one-host-partial-10", "one host fails 10 % of its requests (503)", hosts, 100_000, 503, null));
        out.add(oneHost(
                "one-host-partial",
                "one host fails a third of its requests (503), the default scenario's case",
                hosts,
                330_000,
                503,
                null));
        out.add(oneHost("one-host-partial-60", "one host fails 60 % of its requests (503)", hosts, 600_000, 503, null));
        out.add(oneHost(
                "one-host-dead-503", "one host answers every request with a fast 503", hosts, 1_000_000, 503, null));
        out.add(oneHost(
                "one-host-refused",
                "one host refuses every connection",
                hosts,
                1_000_000,
                503,
                FaultResult.CONNECT_FAILED));
        out.add(oneHost(
                "one-host-timeout", "one host times out every request", hosts, 1_000_000, 503, FaultResult.TIMEOUT));
        if (hosts >= 4) {
            int k = Math.min(3, Math.max(2, hosts / 5));
            List<FaultSpec> faults = new ArrayList<>();
            Set<String> bad = new LinkedHashSet<>();
            for (int h = 0; h < k; h++) {
                faults.add(fault(List.of(name(h)), START, END, 330_000, 503, null));
                bad.add(name(h));
            }
            out.add(scenario(
                    "several-hosts-partial",
                    k + " hosts each fail a third of their requests",
                    Expectation.EJECT,
                    hosts,
                    faults,
                    LoadSpec.NONE,
                    bad,
                    false));
        }
        out.add(scenario(
                "shared-outage",
                "a shared dependency fails 20 % of every host's requests",
                Expectation.NONE,
                hosts,
                List.of(fault(all(hosts), START, END, 200_000, 503, null)),
                LoadSpec.NONE,
                Set.of(),
                false));
        out.add(overload());
        out.add(noisyPool());
        out.add(oneHost(
                "slow-host-timeouts",
                "one host is slow: 15 % of its requests exceed the client timeout",
                hosts,
                150_000,
                504,
                FaultResult.TIMEOUT));
        List<FaultSpec> flaps = new ArrayList<>();
        for (long t = START; t + 15 * S <= END; t += 30 * S) {
            flaps.add(fault(List.of(name(0)), t, t + 15 * S, 500_000, 503, null));
        }
        out.add(scenario(
                "flapping-host",
                "one host fails half its requests for 15 s in every 30 s",
                Expectation.EJECT,
                hosts,
                flaps,
                LoadSpec.NONE,
                Set.of(name(0)),
                true));
        List<FaultSpec> restarts = new ArrayList<>();
        Set<String> restarting = new LinkedHashSet<>();
        int m = Math.min(hosts, 6);
        for (int h = 0; h < m; h++) {
            restarts.add(fault(
                    List.of(name(h)),
                    START + 20 * S * h,
                    START + 20 * S * h + 10 * S,
                    1_000_000,
                    503,
                    FaultResult.CONNECT_FAILED));
            restarting.add(name(h));
        }
        out.add(scenario(
                "rolling-restart",
                m + " hosts restart one after another, each refusing connections for 10 s",
                Expectation.EJECT,
                hosts,
                restarts,
                LoadSpec.NONE,
                restarting,
                false));
        out.add(scenario(
                "bad-requests",
                "5 % of the requests are bad and fail with 500 on every host, all the time",
                Expectation.NONE,
                hosts,
                List.of(fault(all(hosts), 0, DURATION, 50_000, 500, null)),
                LoadSpec.NONE,
                Set.of(),
                false));
        if (hosts != 2) {
            out.add(oneHost(
                    "two-hosts", "a cluster of two, one host failing a third of its requests", 2, 330_000, 503, null));
        }
        if (hosts != 3) {
            out.add(oneHost(
                    "three-hosts",
                    "a cluster of three, one host failing a third of its requests",
                    3,
                    330_000,
                    503,
                    null));
        }
        return out;
    }

    /** A probe of {@link BreakingPoints}: a shared dependency fails {@code percent} of every host's requests. */
    SuiteScenario sharedOutage(int percent) {
        return scenario(
                "shared-outage-" + percent,
                "a shared dependency fails " + percent + " % of every host's " + "requests",
                Expectation.NONE,
                hosts,
                List.of(fault(all(hosts), START, END, percent * 10_000L, 503, null)),
                LoadSpec.NONE,
                Set.of(),
                false);
    }

    /** A probe of {@link BreakingPoints}: every host fails {@code ppm} of its requests all the time. */
    SuiteScenario noise(long ppm) {
        return scenario(
                "noise-" + ppm,
                "every host fails " + ppm / 10_000.0 + " % of its requests, all the time",
                Expectation.NONE,
                hosts,
                List.of(fault(all(hosts), 0, DURATION, ppm, 503, null)),
                LoadSpec.NONE,
                Set.of(),
                false);
    }

    /** A probe of {@link BreakingPoints}: one host fails {@code percent} of its requests. */
    SuiteScenario partial(int percent) {
        return oneHost(
                "one-host-" + percent,
                "one host fails " + percent + " % of its requests (503)",
                hosts,
                percent * 10_000L,
                503,
                null);
    }

    private SuiteScenario oneHost(String name, String description, int n, long ppm, int status, FaultResult result) {
        return scenario(
                name,
                description,
                Expectation.EJECT,
                n,
                List.of(fault(List.of(name(0)), START, END, ppm, status, result)),
                LoadSpec.NONE,
                Set.of(name(0)),
                true);
    }

    /** Each host serves at most 1.25 times its share; one host degrades, and ejecting two overloads the rest. */
    private SuiteScenario overload() {
        long share = simulatedRps() / hosts;
        long capacity = Math.max(1, (share * 5 + 3) / 4);
        Map<String, Long> caps = new HashMap<>();
        for (int h = 0; h < hosts; h++) {
            caps.put(name(h), capacity);
        }
        LoadSpec load = new LoadSpec(caps, 503, null, Map.of(), Arrivals.EVEN, List.of());
        return scenario(
                "overload-cascade",
                "each host serves at most 1.25 times its share (" + capacity
                        + " rps); one host fails 20 % of its requests; ejecting it is fine, ejecting more overloads the rest",
                Expectation.AT_MOST,
                hosts,
                List.of(fault(List.of(name(0)), START, END, 200_000, 503, null)),
                load,
                Set.of(name(0)),
                true);
    }

    /** Every host fails now and then, from 0.5 % to 2 %, all the time: healthy, and noisy. */
    private SuiteScenario noisyPool() {
        List<FaultSpec> faults = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            long ppm = 5_000 + (hosts == 1 ? 0 : 15_000L * h / (hosts - 1));
            faults.add(fault(List.of(name(h)), 0, DURATION, ppm, 503, null));
        }
        return scenario(
                "noisy-pool",
                "a healthy but noisy pool: each host fails 0.5 % to 2 % of its requests",
                Expectation.NONE,
                hosts,
                faults,
                LoadSpec.NONE,
                Set.of(),
                false);
    }

    private SuiteScenario scenario(
            String name,
            String description,
            Expectation expect,
            int n,
            List<FaultSpec> faults,
            LoadSpec load,
            Set<String> shouldEject,
            boolean singleHost) {
        List<FaultSpec> all = new ArrayList<>();
        for (FaultSpec f : faults) {
            all.add(
                    healthChecks == null
                            ? f
                            : f.toBuilder().healthCheckFailure(probeFailure(f)).build());
        }
        long start = Long.MAX_VALUE;
        long end = 0;
        for (FaultSpec f : faults) {
            start = Math.min(start, f.startNanos());
            end = Math.max(end, f.endNanos());
        }
        if (baseErrorPpm > 0) {
            // over the fault's window only: a fault active all the time would make every request one "during the fault"
            all.add(fault(all(n), start, end, baseErrorPpm, 503, null));
        }
        Scenario s = Scenario.builder()
                .name(name)
                .durationNanos(DURATION)
                .seed(1)
                .cluster(ClusterSpec.ofCount(n, 50))
                .traffic(traffic(n))
                .faults(all)
                .outlierDetection(TuneRuns.OFF)
                .healthChecks(healthChecks)
                .load(load)
                .build();
        return new SuiteScenario(name, description, expect, s, shouldEject, singleHost, start, end);
    }

    /**
     * The cluster's traffic from its callers ({@code traffic.clients}: each caller an Envoy of its own that sees
     * only its share); a small cluster of the suite gets the same rate per host as the user's cluster.
     */
    private TrafficSpec traffic(int n) {
        long rate = n == hosts ? rps : Math.max(1, rps * n / hosts);
        return new TrafficSpec(rate, (int) Math.min(clients, rate));
    }

    /** The whole cluster's rate (the hosts' capacity is shared by every caller). */
    long simulatedRps() {
        return rps;
    }

    /** How a host in this fault fails its probes: as its requests when it fails them all, else not at all. */
    private static HealthCheckFailure probeFailure(FaultSpec f) {
        if (f.errorRatePpm() < 1_000_000) {
            return null;
        }
        if (f.result() == FaultResult.CONNECT_FAILED) {
            return HealthCheckFailure.REFUSED;
        }
        return f.result() == FaultResult.TIMEOUT ? HealthCheckFailure.TIMEOUT : HealthCheckFailure.STATUS;
    }

    private static FaultSpec fault(
            List<String> hostNames, long start, long end, long ppm, int status, FaultResult result) {
        return FaultSpec.builder()
                .hosts(hostNames)
                .window(start, end)
                .errorRatePpm(ppm)
                .status(status)
                .result(result)
                .pattern(FaultPattern.RANDOM)
                .build();
    }

    private static List<String> all(int n) {
        List<String> names = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            names.add(name(h));
        }
        return names;
    }

    static String name(int h) {
        return "host-" + h;
    }
}
