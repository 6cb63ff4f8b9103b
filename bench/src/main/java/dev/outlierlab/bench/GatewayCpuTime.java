package dev.outlierlab.bench;

import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * {@link GatewayBenchmark}'s runs measured in thread CPU time and thread-allocated bytes rather than wall
 * time: on a machine shared with other work, wall time counts the time the thread waits for a core, CPU time
 * does not. Each mode is warmed up, then run {@code runs} times on the calling thread; it prints CPU
 * nanoseconds per simulated attempt, the attempts per CPU second that gives, and allocated bytes per attempt.
 * A cross-check of the JMH figures under load, not a replacement. After each run it times {@link ReferenceLoop}, a
 * fixed loop of the same kind of work, and prints its median beside the figures: how fast the machine was while
 * they were taken.
 * Usage: {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.GatewayCpuTime [runs]}.
 */
public final class GatewayCpuTime {
    private GatewayCpuTime() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        System.out.println("| Benchmark | CPU ns per attempt, median run | fastest run | Attempts per CPU second (median) "
                + "| Allocated bytes per attempt | Reference loop, ns per iteration (median) |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (String mode : new String[] {"prod", "shadow"}) {
            GatewayScenario scenario = GatewayBenchmark.sixEndpoints(mode);
            long sink = 0;
            for (int i = 0; i < Math.max(5, runs / 2); i++) {
                sink += GatewaySimulation.run(scenario).summary().attempts();
            }
            double[] nsPerAttempt = new double[runs];
            double[] reference = new double[runs];
            long attempts = 0;
            long bytes = 0;
            for (int i = 0; i < runs; i++) {
                long bytesBefore = mx.getThreadAllocatedBytes(thread);
                long cpuBefore = mx.getCurrentThreadCpuTime();
                GatewayRunResult r = GatewaySimulation.run(scenario);
                long cpu = mx.getCurrentThreadCpuTime() - cpuBefore;
                bytes += mx.getThreadAllocatedBytes(thread) - bytesBefore;
                attempts += r.summary().attempts();
                nsPerAttempt[i] = (double) cpu / r.summary().attempts();
                long refBefore = mx.getCurrentThreadCpuTime();
                long iterations = ReferenceLoop.run();
                reference[i] = (double) (mx.getCurrentThreadCpuTime() - refBefore) / iterations;
            }
            java.util.Arrays.sort(reference);
            java.util.Arrays.sort(nsPerAttempt);
            double median = nsPerAttempt[runs / 2];
            System.out.printf(Locale.ROOT, "| `GatewayBenchmark.sixEndpoints` (%s), CPU time | %.1f | %.1f | %.1f M | %.4f | %.1f |%n",
                    mode, median, nsPerAttempt[0], 1e3 / median, (double) bytes / attempts, reference[runs / 2]);
            if (sink < 0) {
                System.out.println(sink);
            }
        }
    }
}
