package dev.outlierlab.bench;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LiveClock;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

/**
 * One run of {@code liveRecordAt} (as in {@link LiveBenchmark}: one pool of six endpoints shared by every
 * thread, one outcome in 16 a 503, the clock read every 64 calls and advanced 40 ns a call in between) for
 * {@link LiveRecordAb}, which loads this class into the class loader of each build it compares: it uses only
 * the pool's public API and the JDK. Also the measure of {@link LiveCpuTime}'s second table.
 */
public final class LiveRecordRun {
    /** Calls in one stretch of a thread's run. */
    static final int STRETCH = 8192;

    private static LivePool pool;
    private static Endpoint[] endpoints;

    private LiveRecordRun() {
    }

    /**
     * Runs {@code calls} records on each of {@code threads} new threads; returns the mean thread CPU time per
     * call and the median wall time per call over the first thread's stretches with every thread on a core
     * (NaN when there was none).
     */
    public static double[] run(int threads, int calls) throws Exception {
        if (pool == null) {
            pool = LivePoolBuilder.envoy("ab", OutlierDetectionConfig.defaults(), 50).seed(1)
                    .endpoints("e0", "e1", "e2", "e3", "e4", "e5").build().start();
            endpoints = pool.endpoints().toArray(new Endpoint[0]);
        }
        pool.runDue();   // frees the ring lanes of the last run's threads, as the tick thread does every second
        LiveClock clock = pool.clock();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        CyclicBarrier start = new CyclicBarrier(threads);
        int stretches = calls / STRETCH;
        long[] cpu = new long[threads];
        long[][] begin = new long[threads][stretches];
        long[][] end = new long[threads][stretches];
        long[][] onCpu = new long[threads][stretches];
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    long before = mx.getCurrentThreadCpuTime();
                    long at = 0;
                    int i = 0;
                    for (int k = 0; k < stretches; k++) {
                        long cpu0 = mx.getCurrentThreadCpuTime();
                        begin[index][k] = System.nanoTime();
                        for (int n = 0; n < STRETCH; n++, i++) {
                            if ((i & 63) == 0) {
                                at = clock.nanoTime();
                            }
                            pool.record(endpoints[i % 6], (i & 15) == 15 ? 503 : 200, at + (i & 63) * 40L);
                        }
                        end[index][k] = System.nanoTime();
                        onCpu[index][k] = mx.getCurrentThreadCpuTime() - cpu0;
                    }
                    cpu[index] = mx.getCurrentThreadCpuTime() - before;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            all.add(thread);
            thread.start();
        }
        long sum = 0;
        for (int t = 0; t < threads; t++) {
            all.get(t).join();
            sum += cpu[t];
        }
        return new double[] {(double) sum / threads / (stretches * (long) STRETCH), medianOnCore(begin, end, onCpu)};
    }

    /** The median wall time per call over the first thread's stretches with every thread on a core, or NaN. */
    static double medianOnCore(long[][] begin, long[][] end, long[][] onCpu) {
        List<Double> perCall = new ArrayList<>();
        for (int k = 0; k < begin[0].length; k++) {
            if (allOnCore(begin, end, onCpu, k)) {
                perCall.add((double) (end[0][k] - begin[0][k]) / STRETCH);
            }
        }
        perCall.sort(null);
        return perCall.isEmpty() ? Double.NaN : perCall.get(perCall.size() / 2);
    }

    /** How many of the first thread's stretches had every thread on a core. */
    static int countOnCore(long[][] begin, long[][] end, long[][] onCpu) {
        int n = 0;
        for (int k = 0; k < begin[0].length; k++) {
            if (allOnCore(begin, end, onCpu, k)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Whether every thread was on a core throughout the first thread's stretch {@code k}: its CPU time at least
     * 95 % of its wall time, and likewise over every stretch of each other thread that overlaps it, which
     * together cover it.
     */
    static boolean allOnCore(long[][] begin, long[][] end, long[][] onCpu, int k) {
        long from = begin[0][k];
        long to = end[0][k];
        if (onCpu[0][k] < 0.95 * (to - from)) {
            return false;
        }
        for (int t = 1; t < begin.length; t++) {
            long covered = 0;
            for (int j = 0; j < begin[t].length; j++) {
                if (end[t][j] <= from || begin[t][j] >= to) {
                    continue;
                }
                if (onCpu[t][j] < 0.95 * (end[t][j] - begin[t][j])) {
                    return false;
                }
                covered += Math.min(end[t][j], to) - Math.max(begin[t][j], from);
            }
            if (covered < 0.99 * (to - from)) {
                return false;
            }
        }
        return true;
    }
}
