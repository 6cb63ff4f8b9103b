package dev.outlierlab.sim.signals;

/**
 * The step of a time series that a time falls in, {@code floor(nanos / stepNanos)}, remembered together with
 * the step's bounds: times that come in order (one request after another) cost two comparisons instead of a
 * 64-bit division by a number not known in advance, which costs tens of cycles. Any time may be asked.
 */
public final class StepIndex {
    private final long stepNanos;
    private long start = Long.MAX_VALUE;
    private long end = Long.MIN_VALUE;
    private long index;

    public StepIndex(long stepNanos) {
        if (stepNanos <= 0) {
            throw new IllegalArgumentException("a step must be positive, not " + stepNanos);
        }
        this.stepNanos = stepNanos;
    }

    /** {@code floor(nanos / stepNanos)} for {@code nanos >= 0}. */
    public long of(long nanos) {
        if (nanos < start || nanos >= end) {
            index = nanos / stepNanos;
            start = index * stepNanos;
            end = start + stepNanos < start ? Long.MAX_VALUE : start + stepNanos;
        }
        return index;
    }
}
