package dev.outlierlab.sim;

import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;

/**
 * The slow requests of a run: those answered without an error only after one or more failed attempts that made
 * their caller wait, and how long they waited in all. A proxy that retries a failed attempt on another host hides the
 * failure but not the wait: a try that does not answer holds its request until the proxy's timeout expires (nginx's
 * {@code proxy_read_timeout}, Envoy's {@code per_try_timeout}), a 5xx answered slowly holds it for the fault's
 * latency, and a refused or reset connection costs nothing (the error comes back at once). The run's attempts still
 * take no time: the wait is counted, not simulated. One tally per run, fed request by request: {@link #waited} for each
 * failed attempt that was retried, then {@link #answered} once.
 */
public final class RetryWaits {
    private long pending;
    private long requests;
    private long nanos;

    /**
     * What one failed attempt of {@code fault} makes its request wait before the retry: {@code timeoutNanos} for a try
     * that does not answer ({@code timeout}), else the fault's latency (0 for a refused or reset connection, which
     * carries none).
     */
    public static long waitNanos(FaultSpec fault, long timeoutNanos) {
        return fault.result() == FaultResult.TIMEOUT ? timeoutNanos : fault.latencyNanos();
    }

    /** The current request waited {@code waitNanos} more for a failed attempt that was retried. */
    public void waited(long waitNanos) {
        pending += waitNanos;
    }

    /** What the current request has waited so far. */
    public long pendingNanos() {
        return pending;
    }

    /** The current request is done: a slow one if it did not fail and waited; the next request starts at 0. */
    public void answered(boolean failed) {
        if (!failed && pending > 0) {
            requests++;
            nanos += pending;
        }
        pending = 0;
    }

    /** The slow requests so far. */
    public long requests() {
        return requests;
    }

    /** The time the slow requests waited, in all. */
    public long nanos() {
        return nanos;
    }
}
