package dev.outlierlab.live;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The recording side of a live pool after the mode check: it offers an outcome to the
 * {@link OutcomeRings} and decides who drains. When the calling thread's ring passes three quarters full,
 * the thread drains the pool itself if the pool's lock is free, and otherwise goes on: whoever holds the lock
 * is draining and frees this ring as it goes. Draining early, rather than when the ring is full, keeps
 * threads that record at the same rate from all finding their rings full at once. When the ring is full after
 * all, the thread drains, or retries while another thread drains (spinning, then yielding its core); it
 * waits on the lock (sleeps) only if that other thread takes long.
 */
final class OutcomeIntake {
    /** Retries of a full ring while another thread drains, before waiting on the lock. */
    private static final int FULL_RING_SPINS = 256;
    /** Of those, the first ones spin on the core; the others yield it. */
    private static final int BUSY_SPINS = 64;

    private final OutcomeRings recorder;
    private final ReentrantLock lock;
    private final LivePool pool;

    OutcomeIntake(OutcomeRings recorder, ReentrantLock lock, LivePool pool) {
        this.recorder = recorder;
        this.lock = lock;
        this.pool = pool;
    }

    /**
     * Follows up an offer that the recorder answered {@link OutcomeStripe#ACCEPTED_HIGH} or
     * {@link OutcomeStripe#FULL}; returns when the outcome is in a ring.
     */
    void offered(int offered, long time, long payload) {
        if (offered == OutcomeStripe.ACCEPTED_HIGH) {
            if (!lock.isHeldByCurrentThread() && lock.tryLock()) {
                try {
                    pool.drainForRoom(false);
                } finally {
                    lock.unlock();
                }
            }
            return;
        }
        offerToFullRing(time, payload);
    }

    private void offerToFullRing(long time, long payload) {
        if (lock.isHeldByCurrentThread()) {
            pool.lockOutsideListener(); // throws: a decision listener recording into a full ring
        }
        for (int spins = 0; spins < FULL_RING_SPINS; spins++) {
            if (lock.tryLock()) {
                try {
                    drainUntilOffered(time, payload);
                    return;
                } finally {
                    lock.unlock();
                }
            }
            if (spins < BUSY_SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // on a busy machine the lock's holder may be waiting for this core
            }
            if (recorder.offer(time, payload) != OutcomeStripe.FULL) {
                return;
            }
        }
        pool.lockOutsideListener();
        try {
            drainUntilOffered(time, payload);
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: drains until the ring takes the outcome, merging all that is published after the first. */
    private void drainUntilOffered(long time, long payload) {
        boolean whole = false;
        while (recorder.offer(time, payload) == OutcomeStripe.FULL) {
            pool.drainForRoom(whole);
            whole = true;
        }
    }
}
