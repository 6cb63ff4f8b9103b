package dev.outlierlab.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * A fixed loop of the same kind of work as a gateway attempt (a round-robin pick over six endpoints, a check of
 * who is ejected, an even failure pattern, a bucketed window with running totals, a consecutive count and a
 * simple ejection rule), written with plain arrays in one method. It never changes, so its time per iteration
 * tells how fast this machine is at the moment: on the 2-core virtual machine of the README the same loop has
 * taken from 28 to 56 ns, as the host's other tenants come and go, and a figure of the simulation means little
 * without it. {@link GatewayCpuTime} runs it beside the simulation, and {@link #main} runs it alone.
 */
public final class ReferenceLoop {
    private ReferenceLoop() {}

    /**
     * Times 14 passes in thread CPU time and prints the last one's nanoseconds per iteration (the first passes
     * are the JIT's): {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.ReferenceLoop}.
     */
    public static void main(String[] args) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double last = 0;
        for (int i = 0; i < 14; i++) {
            long before = mx.getCurrentThreadCpuTime();
            long iterations = run();
            last = (double) (mx.getCurrentThreadCpuTime() - before) / iterations;
        }
        System.out.printf(Locale.ROOT, "reference loop: %.1f ns per iteration%n", last);
    }

    /** One pass of 3,000,000 iterations; returns the iterations made (with a check value folded in). */
    static long run() {
        int n = 6;
        long count = 3_000_000;
        long step = 100_000;
        int[] twice = {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5};
        long[] bucketAttempts = new long[n * 6];
        long[] bucketFailures = new long[n * 6];
        long[] attempts = new long[n];
        long[] failures = new long[n];
        long[] consecutive = new long[n];
        long[] bucket = new long[n];
        long[] back = new long[n];
        boolean[] ejected = new boolean[n];
        int[] kept = new int[n];
        long badRequests = 0;
        long made = 0;
        long failedRequests = 0;
        int start = 0;
        for (long i = 0; i < count; i++) {
            long t = i * step;
            int s = start;
            start = s + 1 < n ? s + 1 : 0;
            int[] list = twice;
            int offset = s;
            int candidates = n;
            boolean any = false;
            for (int e = 0; e < n; e++) {
                if (ejected[e] && back[e] <= t) {
                    ejected[e] = false;
                    attempts[e] = 0;
                    failures[e] = 0;
                    consecutive[e] = 0;
                    Arrays.fill(bucketAttempts, e * 6, e * 6 + 6, 0);
                    Arrays.fill(bucketFailures, e * 6, e * 6 + 6, 0);
                }
                any |= ejected[e];
            }
            if (any) {
                int k = 0;
                for (int j = offset; j < offset + n; j++) {
                    if (!ejected[twice[j]]) {
                        kept[k++] = twice[j];
                    }
                }
                list = kept;
                offset = 0;
                candidates = k;
            }
            boolean failed = false;
            for (int a = 0; a < candidates; a++) {
                int e = list[offset + a];
                boolean f = false;
                if (e == 0 && t >= 30_000_000_000L && t < 240_000_000_000L) {
                    long k = badRequests++;
                    f = ((k + 1) * 333_333) / 1_000_000 > (k * 333_333) / 1_000_000;
                }
                made++;
                long b = t / 10_000_000_000L;
                int slot = (int) (b % 6);
                if (b != bucket[e]) {
                    attempts[e] -= bucketAttempts[e * 6 + slot];
                    failures[e] -= bucketFailures[e * 6 + slot];
                    bucketAttempts[e * 6 + slot] = 0;
                    bucketFailures[e * 6 + slot] = 0;
                    bucket[e] = b;
                }
                bucketAttempts[e * 6 + slot]++;
                attempts[e]++;
                if (f) {
                    bucketFailures[e * 6 + slot]++;
                    failures[e]++;
                }
                consecutive[e] = f ? consecutive[e] + 1 : 0;
                if (!ejected[e] && failures[e] > 0 && attempts[e] >= 5 && failures[e] * 100 > attempts[e] * 30) {
                    ejected[e] = true;
                    back[e] = t + 30_000_000_000L;
                }
                failed = f;
                if (!f) {
                    break;
                }
            }
            if (failed) {
                failedRequests++;
            }
        }
        return made + (failedRequests < 0 ? 1 : 0);
    }
}
