package dev.outlierlab.engine;

/**
 * Work a detector does at times of its own rather than at outcomes (Envoy's interval ticks, returns from
 * ejection): the caller asks when it is next due and runs it at or after that time. The caller owns the
 * clock; nothing runs by itself.
 */
public interface ScheduledWork {
    /** Returned by {@link #nextDueNanos()} when nothing is scheduled. */
    long NEVER = Long.MAX_VALUE;

    /** The earliest time at which {@link #runDue(long)} has work, or {@link #NEVER}. */
    long nextDueNanos();

    /** Runs every piece of work due at or before {@code nowNanos}, in time order. */
    void runDue(long nowNanos);
}
