package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scenarios the search never scores, for a cluster of {@code n} hosts: 150 s runs (the suite's are 300 s) whose fault
 * hits the last host (the suite's hit the first), at other depths (35 % in bursts, 45 % to a host weighted three
 * times, 50 % with Poisson arrivals, 100 % as 502s with Poisson arrivals, refused connections from 60 s), shared outages at 10 %, 30 % and
 * 50 % (the suite's is 20 %), and a pool noisier than the suite's (1 % to 4 % on each host).
 */
final class HeldOutScenarios {
    static final long S = Durations.SECOND;
    static final long DURATION = 150 * S;
    static final long START = 20 * S;
    static final long END = 130 * S;

    /**
     * A scenario the search never scores and how deep its failing host fails (0 where no host should go).
     *
     * @param dead its failing host fails every request
     */
    record HeldOut(SuiteScenario scenario, int depthPercent, boolean dead) {
        String name() {
            return scenario.name();
        }
    }

    private HeldOutScenarios() {}

    static List<HeldOut> of(int n, long rps, int callers) {
        String last = DefaultSuite.name(n - 1);
        LoadSpec weighted = new LoadSpec(Map.of(), 503, null, Map.of(last, 3L), Arrivals.EVEN, List.of());
        LoadSpec poisson = new LoadSpec(Map.of(), 503, null, Map.of(), Arrivals.POISSON, List.of());
        List<HeldOut> out = new ArrayList<>();
        out.add(oneHost(
                "held-35-bursts", n, rps, callers, 350_000, 503, null, FaultPattern.BURSTS, START, LoadSpec.NONE));
        out.add(oneHost("held-45-weighted", n, rps, callers, 450_000, 503, null, FaultPattern.RANDOM, START, weighted));
        out.add(oneHost("held-50-poisson", n, rps, callers, 500_000, 503, null, FaultPattern.RANDOM, START, poisson));
        out.add(oneHost("held-dead-502", n, rps, callers, 1_000_000, 502, null, FaultPattern.RANDOM, START, poisson));
        out.add(oneHost(
                "held-refused",
                n,
                rps,
                callers,
                1_000_000,
                503,
                FaultResult.CONNECT_FAILED,
                FaultPattern.RANDOM,
                60 * S,
                LoadSpec.NONE));
        for (int depth : new int[] {10, 30, 50}) {
            out.add(new HeldOut(
                    suite(
                            "held-shared-" + depth,
                            n,
                            rps,
                            callers,
                            List.of(fault(all(n), START, END, depth * 10_000L, 503, null, FaultPattern.RANDOM)),
                            Expectation.NONE,
                            Set.of(),
                            START,
                            LoadSpec.NONE),
                    0,
                    false));
        }
        List<FaultSpec> noise = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            noise.add(fault(
                    List.of(DefaultSuite.name(h)),
                    0,
                    DURATION,
                    10_000 + 30_000L * h / (n - 1),
                    503,
                    null,
                    FaultPattern.RANDOM));
        }
        out.add(new HeldOut(
                suite("held-noisy-1-to-4", n, rps, callers, noise, Expectation.NONE, Set.of(), 0, LoadSpec.NONE),
                0,
                false));
        return out;
    }

    private static HeldOut oneHost(
            String name,
            int n,
            long rps,
            int callers,
            long ppm,
            int status,
            FaultResult result,
            FaultPattern pattern,
            long start,
            LoadSpec load) {
        String host = DefaultSuite.name(n - 1);
        SuiteScenario s = suite(
                name,
                n,
                rps,
                callers,
                List.of(fault(List.of(host), start, END, ppm, status, result, pattern)),
                Expectation.EJECT,
                Set.of(host),
                start,
                load);
        return new HeldOut(s, (int) (ppm / 10_000), ppm >= 1_000_000);
    }

    private static List<String> all(int n) {
        List<String> all = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            all.add(DefaultSuite.name(h));
        }
        return all;
    }

    private static FaultSpec fault(
            List<String> hosts, long start, long end, long ppm, int status, FaultResult result, FaultPattern pattern) {
        return FaultSpec.builder()
                .hosts(hosts)
                .window(start, end)
                .errorRatePpm(ppm)
                .status(status)
                .result(result)
                .pattern(pattern)
                .burstLengthMilli(2_000)
                .build();
    }

    private static SuiteScenario suite(
            String name,
            int n,
            long rps,
            int callers,
            List<FaultSpec> faults,
            Expectation expect,
            Set<String> eject,
            long start,
            LoadSpec load) {
        Scenario s = Scenario.builder()
                .name(name)
                .durationNanos(DURATION)
                .seed(1)
                .cluster(ClusterSpec.ofCount(n, 50))
                .traffic(new TrafficSpec(rps, callers))
                .faults(faults)
                .outlierDetection(TuneRuns.OFF)
                .load(load)
                .build();
        return new SuiteScenario(name, name, expect, s, eject, expect == Expectation.EJECT, start, END);
    }
}
