package dev.outlierlab.live;

/**
 * The time source of a live pool, in nanoseconds from an arbitrary origin. {@link #SYSTEM} is
 * {@link System#nanoTime()}; tests inject a {@link ManualClock} so that outcomes land at chosen times.
 */
@FunctionalInterface
public interface LiveClock {
    LiveClock SYSTEM = System::nanoTime;

    long nanoTime();
}
