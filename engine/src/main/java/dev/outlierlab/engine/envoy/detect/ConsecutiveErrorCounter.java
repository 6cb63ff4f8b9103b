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

    public void reset() {
        count = 0;
    }

    public long count() {
        return count;
    }
}
