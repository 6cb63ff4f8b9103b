package dev.outlierlab.bench;

import com.sun.management.ThreadMXBean;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link GatewayBenchmark}'s runs measured in thread CPU time and thread-allocated bytes rather than wall
 * time: on a machine shared with other work, wall time counts the time the thread waits for a core, CPU time
 * does not. Each mode is warmed up, then run {@code runs} times on the calling thread; it prints CPU
 * nanoseconds per simulated attempt, the attempts per CPU second that gives, and allocated bytes per attempt.
 * A cross-check of the JMH figures under load, not a replacement. After each run it times {@link ReferenceLoop}, a
 * fixed loop of the same kind of work, and prints its median beside the figures: how fast the machine was while
 * they were taken, and the ratio of the two, run by run: the simulation and the loop slow down together (a run
 * at 44 ns an attempt beside the loop at 29, one at 75 beside 50), so the ratio holds across the host's phases,
 * and the last column turns it into attempts per CPU second on a core running the loop at 30 ns.
 * Usage: {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.GatewayCpuTime [runs]}.
 */
public final class GatewayCpuTime {
    /**
     * The reference loop's time on the README's machine at its normal speed (28 to 32 ns; its slow stretches
     * take 50 to 70): the simulation's cost in reference iterations, times this, is what a core at that speed
     * does, whatever the host was doing while it was measured.
     */
    static final double NOMINAL_REFERENCE_NS = 30.0;

    private GatewayCpuTime() {}

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        System.out.println(
                "| Benchmark | CPU ns per attempt, median run | fastest run | Attempts per CPU second (median) "
                        + "| Allocated bytes per attempt | Reference loop, ns per iteration (median) "
                        + "| Attempt / reference iteration (median of runs) | Attempts per CPU second at "
                        + NOMINAL_REFERENCE_NS
                        + " ns per reference iteration |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|");
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
            double[] ratio = new double[runs];
            for (int i = 0; i < runs; i++) {
                ratio[i] = nsPerAttempt[i] / reference[i];
            }
            Arrays.sort(ratio);
            Arrays.sort(reference);
            Arrays.sort(nsPerAttempt);
            double median = nsPerAttempt[runs / 2];
            double r = ratio[runs / 2];
            System.out.printf(
                    Locale.ROOT,
                    "| `GatewayBenchmark.sixEndpoints` (%s), CPU time | %.1f | %.1f | %.1f M | %.4f | %.1f "
                            + "| %.2f | %.1f M |%n",
                    mode,
                    median,
                    nsPerAttempt[0],
                    1e3 / median,
                    (double) bytes / attempts,
                    reference[runs / 2],
                    r,
                    1e3 / (r * NOMINAL_REFERENCE_NS));
            if (sink < 0) {
                System.out.println(sink);
            }
        }
    }
}
