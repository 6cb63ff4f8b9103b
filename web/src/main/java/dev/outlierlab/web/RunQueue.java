package dev.outlierlab.web;

import dev.outlierlab.sim.RunCancelledException;
import dev.outlierlab.sim.RunWatcher;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Admits simulations: a few run at once, at most {@code maxWaiting} wait for a turn, and any request beyond
 * that is answered at once with a 503 that says so (rather than a reset connection). Each run has a deadline
 * counted from its arrival; a run still going at its deadline is stopped through its {@link RunWatcher}, its
 * thread freed, and its client answered with a 503. A run is also stopped when the client's own watcher says
 * nobody waits for it any more (a {@link StreamedAnswer} whose client has gone); such runs are counted.
 */
final class RunQueue {
    private final Semaphore running;
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong leftByClient = new AtomicLong();
    private final int maxWaiting;
    private final long deadlineNanos;

    RunQueue(int simulations, int maxWaiting, long deadlineNanos) {
        this.running = new Semaphore(simulations, true);
        this.maxWaiting = maxWaiting;
        this.deadlineNanos = deadlineNanos;
    }

    /**
     * Runs {@code run} once a simulation slot is free, with a watcher that stops it at the deadline and
     * otherwise passes on to {@code client}. A {@link RunCancelledException} from {@code client} (its client has
     * gone) is counted and passed on unchanged; one at the deadline becomes a 503 {@link ApiException}.
     */
    byte[] run(RunWatcher client, Function<RunWatcher, byte[]> run) {
        long deadline = System.nanoTime() + deadlineNanos;
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            throw new ApiException(
                    503,
                    "the lab is busy: " + maxWaiting + " runs are already waiting for a turn; "
                            + "try again in a moment");
        }
        boolean acquired;
        try {
            acquired = running.tryAcquire(deadlineNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "the server is shutting down");
        } finally {
            waiting.decrementAndGet();
        }
        if (!acquired) {
            throw new ApiException(
                    503,
                    "the lab is busy: no simulation slot came free within " + seconds() + "; try again in a moment");
        }
        boolean[] clientLeft = {false};
        try {
            return run.apply((done, total) -> {
                if (System.nanoTime() - deadline > 0 || Thread.currentThread().isInterrupted()) {
                    throw new RunCancelledException("the run was stopped at its deadline of " + seconds()
                            + "; make it smaller (a shorter duration, fewer requests per second or hosts)");
                }
                try {
                    client.progress(done, total);
                } catch (RunCancelledException e) {
                    clientLeft[0] = true;
                    throw e;
                }
            });
        } catch (RunCancelledException e) {
            if (clientLeft[0]) {
                leftByClient.incrementAndGet();
                throw e;
            }
            throw new ApiException(503, e.getMessage());
        } finally {
            running.release();
        }
    }

    /** Runs stopped because their client had gone, since the server started. */
    long leftByClient() {
        return leftByClient.get();
    }

    /** Runs waiting for a slot now. */
    int waiting() {
        return waiting.get();
    }

    private String seconds() {
        double s = deadlineNanos / 1e9;
        return (s == Math.rint(s) ? Long.toString((long) s) : Double.toString(s)) + " s";
    }
}
