package dev.outlierlab.sim;

/**
 * Looks over a run's shoulder: told how far the run has come every {@link #EVERY_REQUESTS} requests and every
 * {@link #EVERY_ROUNDS} interval ticks or health-check rounds, so a front end can show progress (the command
 * line on a terminal) or stop a run that nobody waits for any more (the lab server, at its deadline), by
 * throwing {@link RunCancelledException} from {@link #progress}. It never changes what a run computes.
 */
@FunctionalInterface
public interface RunWatcher {
    /** Requests between two calls. */
    long EVERY_REQUESTS = 1L << 20;
    /** Ticks and health-check rounds between two calls. */
    long EVERY_ROUNDS = 1L << 16;
    /** Watches nothing. */
    RunWatcher NONE = (done, total) -> {};

    /**
     * The run has simulated {@code done} of {@code total} requests (for a trace, records replayed and 0).
     *
     * @throws RunCancelledException to stop the run
     */
    void progress(long done, long total);
}
