package dev.outlierlab.live;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a pool's due work on a scheduler: one task at a time, each rescheduling itself for the pool's next
 * interval boundary (at most a second ahead, so outcomes are drained even when nothing filters). The ticks
 * themselves are computed from the clock, at exact multiples of the interval, so a late task runs the same
 * ticks a punctual one would have.
 */
final class PoolTicker {
    private final LivePool pool;
    private ScheduledExecutorService scheduler;
    private boolean ownScheduler;
    private ScheduledFuture<?> next;
    private boolean running;

    PoolTicker(LivePool pool) {
        this.pool = pool;
    }

    synchronized void startOwn() {
        ScheduledExecutorService own = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "outlier-lab-live-" + pool.name());
            t.setDaemon(true);
            return t;
        });
        begin(own, true);
    }

    synchronized void start(ScheduledExecutorService callers) {
        begin(callers, false);
    }

    private void begin(ScheduledExecutorService s, boolean own) {
        if (running) {
            if (own) {
                s.shutdownNow();
            }
            throw new IllegalStateException("pool " + pool.name() + " is already ticking");
        }
        scheduler = s;
        ownScheduler = own;
        running = true;
        schedule(0);
    }

    private synchronized void schedule(long delayNanos) {
        if (running) {
            next = scheduler.schedule(this::runOnce, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void runOnce() {
        try {
            pool.runDue();
        } finally {
            schedule(pool.nanosUntilDue());
        }
    }

    synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        if (next != null) {
            next.cancel(false);
        }
        if (ownScheduler) {
            scheduler.shutdownNow();
        }
        scheduler = null;
    }
}
