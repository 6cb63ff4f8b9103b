package dev.outlierlab.engine.envoy.detect;

/**
 * The consecutive-error detector for one host and one kind of error (5xx, gateway failure, local-origin
 * failure), as in Envoy's {@code DetectorHostMonitorImpl}: each error increments the count, a success resets
 * it, and the host is detected when the count becomes exactly equal to the threshold. Because the test is
 * equality, a count that runs past the threshold (while the host is ejected) never triggers again until it
 * is reset.
 */
public final class ConsecutiveErrorCounter {
    private long count;

    /** Counts one error; true iff the count now equals {@code threshold}. */
    public boolean recordError(long threshold) {
        return ++count == threshold;
    }

    /**
     * Counts {@code n} errors at once that the caller knows do not make the count equal the threshold on the way
     * (none reaches it, or it was passed before): the same count as {@code n} calls of {@link #recordError}.
     */
    public void recordErrors(long n) {
        count += n;
    }

    /**
     * How many errors in a row, from the count now, are counted before one makes it equal {@code threshold}: that
     * many {@link #recordError} calls return false, the next returns true; {@link Long#MAX_VALUE} when none will
     * (the count is at or past the threshold, or the threshold is not positive).
     */
    public long errorsBefore(long threshold) {
        return count < threshold ? threshold - count - 1 : Long.MAX_VALUE;
    }

    public void reset() {
        count = 0;
    }

    public long count() {
        return count;
    }
}
