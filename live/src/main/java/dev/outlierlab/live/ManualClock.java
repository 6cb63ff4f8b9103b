package dev.outlierlab.live;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to, for tests and for replaying recorded traffic: it starts at 0, so
 * a pool built on it sees the same times as the lab's trace replay.
 */
public final class ManualClock implements LiveClock {
    private final AtomicLong nanos = new AtomicLong();

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    /** Sets the time; it may not go backwards. */
    public void set(long timeNanos) {
        long previous = nanos.get();
        if (timeNanos < previous) {
            throw new IllegalArgumentException("time " + timeNanos + " ns is before the clock's " + previous + " ns");
        }
        nanos.set(timeNanos);
    }

    public void advance(long deltaNanos) {
        set(nanos.get() + deltaNanos);
    }
}
