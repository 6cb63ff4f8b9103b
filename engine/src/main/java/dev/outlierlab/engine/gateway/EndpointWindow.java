package dev.outlierlab.engine.gateway;

import java.util.Arrays;

/**
 * One endpoint's rolling window in one process (docs/gateway.md): a ring of buckets of
 * (attempts, failures). An attempt at t goes to bucket {@code floor(t / bucket)}; the window at t is that
 * bucket and the {@code buckets - 1} before it. Moving to a later bucket clears every bucket that fell out
 * of the window before it is used, and running totals make reading the window O(1). Allocates nothing
 * after construction. Time must not go backwards.
 */
public final class EndpointWindow {
    /** Below this count, {@code count * 100.0} is exact: 2^46, and 2^46 * 100 < 2^53. */
    static final long EXACT_PERCENT_LIMIT = 1L << 46;

    private final long bucketNanos;
    private final int[] attempts;
    private final int[] failures;
    private long currentBucket = -1;
    /** {@code currentBucket mod buckets}: the slot the current bucket uses. */
    private int currentSlot;
    /** Start of the bucket after the current one: before it, {@link #advance} has nothing to do. */
    private long nextBucketStartNanos = Long.MIN_VALUE;

    private long totalAttempts;
    private long totalFailures;

    public EndpointWindow(long bucketNanos, int buckets) {
        this.bucketNanos = bucketNanos;
        this.attempts = new int[buckets];
        this.failures = new int[buckets];
    }

    /** Brings the window to time {@code nowNanos}: buckets older than the window at that time are cleared. */
    public void advance(long nowNanos) {
        if (nowNanos >= nextBucketStartNanos) {
            moveTo(nowNanos);
        }
    }

    /** {@link #advance} once the time has reached a later bucket: kept apart so that advance stays small. */
    private void moveTo(long nowNanos) {
        long target = nowNanos / bucketNanos;
        if (target <= currentBucket) {
            return;
        }
        int n = attempts.length;
        if (currentBucket < 0 || target - currentBucket >= n) {
            clear();
        } else {
            for (long b = currentBucket + 1; b <= target; b++) {
                int slot = (int) (b % n);
                totalAttempts -= attempts[slot];
                totalFailures -= failures[slot];
                attempts[slot] = 0;
                failures[slot] = 0;
            }
        }
        currentBucket = target;
        currentSlot = (int) (target % n);
        nextBucketStartNanos = (target + 1) * bucketNanos;
    }

    /** Counts one attempt at {@code nowNanos}. */
    public void record(long nowNanos, boolean failed) {
        advance(nowNanos);
        int slot = currentSlot;
        attempts[slot]++;
        totalAttempts++;
        if (failed) {
            failures[slot]++;
            totalFailures++;
        }
    }

    /** Empties the window (an endpoint returning from ejection). */
    public void clear() {
        Arrays.fill(attempts, 0);
        Arrays.fill(failures, 0);
        totalAttempts = 0;
        totalFailures = 0;
    }

    /** Attempts in the window as of the last {@link #advance}. */
    public long attempts() {
        return totalAttempts;
    }

    public long failures() {
        return totalFailures;
    }

    /**
     * The success rate in percent, {@code successes * 100.0 / attempts}; NaN when empty. A window without
     * failures gives exactly 100 without dividing: for a count {@code a} below 2^46, {@code a * 100.0} is exact
     * (below 2^53), so {@code a * 100.0 / a} is exactly 100.0. (Above 2^53 / 100 the product is rounded and
     * the quotient can be 100.00000000000001, so larger counts divide.) The judgement computes every peer's
     * rate at each outcome, and most peers are healthy.
     */
    public double successRatePercent() {
        if (totalFailures == 0 && totalAttempts > 0 && totalAttempts < EXACT_PERCENT_LIMIT) {
            return 100.0;
        }
        return (totalAttempts - totalFailures) * 100.0 / totalAttempts;
    }

    /** The oldest bucket start the window holds as of the last {@link #advance}: nothing before it is counted. */
    public long windowStartNanos() {
        return Math.max(0, currentBucket - attempts.length + 1) * bucketNanos;
    }
}
