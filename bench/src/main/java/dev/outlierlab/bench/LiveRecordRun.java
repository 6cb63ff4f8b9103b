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
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * One run of {@code liveRecordAt} (as in {@link LiveBenchmark}: one pool of six endpoints shared by every
 * thread, one outcome in 16 a 503, the clock read every 64 calls and advanced 40 ns a call in between) for
 * {@link LiveRecordAb}, which loads this class into the class loader of each build it compares: it uses only
 * the pool's public API and the JDK. Its thread harness, {@link #measure}, is also that of {@link LiveCpuTime}.
 */
public final class LiveRecordRun {
    /** Calls in one stretch of a thread's run. */
    static final int STRETCH = 8192;

    private static LivePool pool;
    private static Endpoint[] endpoints;

    private LiveRecordRun() {}

    /**
     * Runs {@code calls} records on each of {@code threads} new threads; returns the mean thread CPU time per
     * call and the median wall time per call over the first thread's stretches with every thread on a core
     * (NaN when there was none), as {@link #measure} does.
     */
    public static double[] run(int threads, int calls) throws Exception {
        if (pool == null) {
            pool = LivePoolBuilder.envoy("ab", OutlierDetectionConfig.defaults(), 50)
                    .seed(1)
                    .endpoints("e0", "e1", "e2", "e3", "e4", "e5")
                    .build()
                    .start();
            endpoints = pool.endpoints().toArray(new Endpoint[0]);
        }
        pool.runDue(); // frees the ring lanes of the last run's threads, as the tick thread does every second
        LiveClock clock = pool.clock();
        double[] result = measure(threads, calls, t -> {
            long[] at = new long[1];
            return i -> {
                if ((i & 63) == 0) {
                    at[0] = clock.nanoTime();
                }
                pool.record(endpoints[i % 6], (i & 15) == 15 ? 503 : 200, at[0] + (i & 63) * 40L);
            };
        });
        return new double[] {result[0], result[1]};
    }

    /**
     * The thread harness of this run and of {@link LiveCpuTime}: starts {@code threads} new threads at once (on
     * a barrier); each calls its own consumer, {@code perThread.apply(t)} for thread {@code t} (made on that
     * thread before the start, so it may keep the thread's own state), with {@code i} = 0 to {@code calls - 1}:
     * first in stretches of {@value #STRETCH} calls, timing each (wall time and thread CPU time), then the
     * remaining {@code calls % STRETCH} calls untimed. Returns the mean thread CPU nanoseconds per call over all
     * the calls of all the threads, the median wall nanoseconds per call over the first thread's stretches
     * with every thread on a core ({@link #medianOnCore}, NaN when there was none) and how many such stretches
     * there were ({@link #countOnCore}). It may use only the JDK, as this class is loaded into other builds'
     * class loaders by {@link LiveRecordAb}.
     */
    static double[] measure(int threads, int calls, IntFunction<IntConsumer> perThread) throws InterruptedException {
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
                    IntConsumer call = perThread.apply(index);
                    start.await();
                    long before = mx.getCurrentThreadCpuTime();
                    int i = 0;
                    for (int k = 0; k < stretches; k++) {
                        long cpu0 = mx.getCurrentThreadCpuTime();
                        long wall0 = System.nanoTime();
                        for (int n = 0; n < STRETCH; n++, i++) {
                            call.accept(i);
                        }
                        end[index][k] = System.nanoTime();
                        onCpu[index][k] = mx.getCurrentThreadCpuTime() - cpu0;
                        begin[index][k] = wall0;
                    }
                    for (; i < calls; i++) {
                        call.accept(i);
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
        return new double[] {
            (double) sum / threads / calls, medianOnCore(begin, end, onCpu), countOnCore(begin, end, onCpu)
        };
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
