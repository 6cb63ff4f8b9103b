package dev.outlierlab.engine;

/**
 * Takes the outcome of each attempt, the one thing a router tells a passive detector. Endpoints are indexes
 * in the detector's endpoint order; outcomes are {@link Outcome} codes; time is the caller's, in
 * nanoseconds, never decreasing.
 */
public interface OutcomeRecorder {
    /** Records one attempt's outcome for {@code endpoint} at {@code nowNanos}. */
    void record(int endpoint, int outcome, long nowNanos);
}
