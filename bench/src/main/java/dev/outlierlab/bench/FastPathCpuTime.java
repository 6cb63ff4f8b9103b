package dev.outlierlab.bench;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.FastPath;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The event-driven path ({@link FastPath}) against the per-request path, side by side in one run, in thread CPU
 * time: 1,000 hosts at 100,000 rps for {@code minutes} (default 10: 60 million requests), {@code host-0} failing
 * 30 % of its requests with 503 at random from 1/10 to 9/10 of the run, Envoy's default detectors. The two paths
 * alternate run by run (after two warm-up runs of each), so a slow stretch of the machine hits both; each pair's
 * JSON reports must be byte-identical. Prints a markdown table with the median CPU time of each and the ratio of
 * the medians, and the same for the lab's default scenario (6 hosts, one of them failing) and for a noisy pool
 * (every host failing 2 %: every request takes its fault's draw). Usage: {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.FastPathCpuTime [runs] [minutes]}.
 */
public final class FastPathCpuTime {
    private FastPathCpuTime() {}

    /** The benchmark's scenario. */
    static Scenario scenario(int minutes) {
        long duration = minutes * 60L * Durations.SECOND;
        FaultSpec fault = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(duration / 10, duration / 10 * 9)
                .errorRatePpm(300_000)
                .pattern(FaultPattern.RANDOM)
                .build();
        return Scenario.builder()
                .name("fast-path-1000-hosts-" + minutes + "m")
                .durationNanos(duration)
                .seed(1)
                .cluster(ClusterSpec.ofCount(1_000, 50))
                .traffic(new TrafficSpec(100_000))
                .faults(List.of(fault))
                .build();
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int minutes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        System.out.printf(
                Locale.ROOT,
                "%d runs of each path, alternating, after 2 warm-up runs of each; every pair's "
                        + "JSON reports byte-identical%n%n",
                runs);
        System.out.println("| scenario | requests | per-request CPU ms (median) | event-driven CPU ms (median) "
                + "| per-request ns / request | event-driven ns / request | ratio of the medians |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        measure(
                "1,000 hosts, 100,000 rps, " + minutes + " min, host-0 30 % random 503, default detectors",
                scenario(minutes),
                runs);
        measure("the default scenario: 6 hosts, 600 rps, 300 s, host-0 33 % even 503", Scenario.defaults(), runs * 20);
        measure("a noisy pool: 6 hosts, 600 rps, 300 s, every host 2 % random 503", noisyPool(), runs * 20);
    }

    /** Every host of the default scenario failing 2 % at random for the whole run: a fault at every host. */
    static Scenario noisyPool() {
        Scenario d = Scenario.defaults();
        FaultSpec fault = FaultSpec.builder()
                .hosts(d.cluster().hosts())
                .window(0, d.durationNanos())
                .errorRatePpm(20_000)
                .pattern(FaultPattern.RANDOM)
                .build();
        return d.toBuilder().name("noisy-pool").faults(List.of(fault)).build();
    }

    private static void measure(String name, Scenario scenario, int runs) {
        if (!FastPath.appliesTo(scenario, RunOptions.DEFAULT)) {
            throw new IllegalStateException("the fast path does not apply to " + name);
        }
        RunOptions perRequest = RunOptions.DEFAULT.forcePerRequest();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int i = 0; i < Math.max(2, runs / 5); i++) {
            FastPath.run(scenario, RunOptions.DEFAULT);
            Simulation.run(scenario, perRequest);
        }
        long[] fast = new long[runs];
        long[] slow = new long[runs];
        long requests = 0;
        for (int i = 0; i < runs; i++) {
            long before = mx.getCurrentThreadCpuTime();
            RunResult f = FastPath.run(scenario, RunOptions.DEFAULT);
            fast[i] = mx.getCurrentThreadCpuTime() - before;
            before = mx.getCurrentThreadCpuTime();
            RunResult s = Simulation.run(scenario, perRequest);
            slow[i] = mx.getCurrentThreadCpuTime() - before;
            if (!ResultJson.toJson(f, false, true).equals(ResultJson.toJson(s, false, true))) {
                throw new IllegalStateException("the two paths' reports differ on " + name);
            }
            requests = s.summary().requests();
        }
        Arrays.sort(fast);
        Arrays.sort(slow);
        double fastMs = fast[runs / 2] / 1e6;
        double slowMs = slow[runs / 2] / 1e6;
        System.out.printf(
                Locale.ROOT,
                "| %s | %,d | %.2f | %.2f | %.2f | %.3f | %.1fx |%n",
                name,
                requests,
                slowMs,
                fastMs,
                slow[runs / 2] / (double) requests,
                fast[runs / 2] / (double) requests,
                slowMs / fastMs);
    }
}
