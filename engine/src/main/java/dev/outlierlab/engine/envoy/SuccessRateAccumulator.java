package dev.outlierlab.engine.envoy;

/**
 * Two request buckets for one origin of one host, as Envoy's {@code SuccessRateAccumulator}: responses are
 * written to the current bucket; each interval tick swaps them, so the bucket just filled is the one judged
 * and a zeroed one takes the writes.
 */
public final class SuccessRateAccumulator {
    private long currentTotal;
    private long currentSuccess;
    private long judgedTotal;
    private long judgedSuccess;

    void recordSuccess() {
        currentTotal++;
        currentSuccess++;
    }

    /** {@code n} calls of {@link #recordSuccess()}. */
    void recordSuccesses(long n) {
        currentTotal += n;
        currentSuccess += n;
    }

    void recordFailure() {
        currentTotal++;
    }

    /** {@code n} calls of {@link #recordFailure()}. */
    void recordFailures(long n) {
        currentTotal += n;
    }

    /** Envoy's {@code updateCurrentWriter}: the filled bucket becomes the judged one. */
    void swap() {
        judgedTotal = currentTotal;
        judgedSuccess = currentSuccess;
        currentTotal = 0;
        currentSuccess = 0;
    }

    /** Requests in the judged bucket. */
    public long judgedRequests() {
        return judgedTotal;
    }

    public long judgedSuccesses() {
        return judgedSuccess;
    }

    /** {@code successes * 100.0 / requests} of the judged bucket; NaN when it is empty. */
    public double judgedSuccessRatePercent() {
        return judgedTotal == 0 ? Double.NaN : judgedSuccess * 100.0 / judgedTotal;
    }

    /** Requests written since the last tick. */
    public long currentRequests() {
        return currentTotal;
    }
}
