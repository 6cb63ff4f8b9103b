package dev.outlierlab.sim;

/**
 * Per-step counts for charts: bucket {@code b} covers {@code [b * stepNanos, (b + 1) * stepNanos)}. Memory
 * grows with the run's duration, never with its request count.
 *
 * @param requests   requests sent in each step
 * @param failed     requests that failed in each step (including those with no host)
 * @param maxEjected most hosts ejected at once at a request of each step
 * @param panicNanos time in panic within each step, by the rule of {@link RunSummary#panicNanos()}
 */
public record TimeSeries(long stepNanos, long[] requests, long[] failed, int[] maxEjected, long[] panicNanos) {
    public int size() {
        return requests.length;
    }
}
