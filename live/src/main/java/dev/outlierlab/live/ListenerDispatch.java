package dev.outlierlab.live;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Delivers a pool's decisions and stage records to its {@link LiveListener}s, so that no listener can harm
 * the pool: whatever a listener throws ({@link Error}s and sneaky checked exceptions included) is caught and
 * counted; decisions are queued under the pool's lock and delivered after it is released, one thread at a
 * time and in order, by a thread that filtered, ticked, snapshot or changed the pool, never by a recording
 * thread draining a full ring, so a listener that blocks stalls neither the drain nor any recording thread.
 * At most {@link #MAX_QUEUED} decisions wait; beyond that they are dropped and counted (a listener that
 * blocks for ever loses decisions, never memory). Stage records go to {@link LiveListener#onStageRequest} for
 * every request the stage acted on and to {@link LiveListener#onStage} only when what the stage did changed
 * (another action, mode or set of endpoints), as Envoy logs an ejection once, not on each request it diverts.
 */
final class ListenerDispatch {
    static final int MAX_QUEUED = 10_000;

    private final CopyOnWriteArrayList<LiveListener> listeners = new CopyOnWriteArrayList<>();
    private final ConcurrentLinkedQueue<LiveDecision> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final ReentrantLock delivering = new ReentrantLock();
    private final AtomicReference<StageRecord> lastStage = new AtomicReference<>();
    private final LongAdder errors = new LongAdder();
    private final LongAdder dropped = new LongAdder();

    void add(LiveListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void remove(LiveListener listener) {
        listeners.remove(listener);
    }

    long errors() {
        return errors.sum();
    }

    long dropped() {
        return dropped.sum();
    }

    /** Under the pool's lock: queues a decision for delivery once the lock is released. */
    void decided(LiveDecision decision) {
        if (listeners.isEmpty()) {
            return;
        }
        if (queued.incrementAndGet() > MAX_QUEUED) {
            queued.decrementAndGet();
            dropped.increment();
            return;
        }
        queue.add(decision);
    }

    /**
     * Outside the pool's lock: delivers the queued decisions unless another thread is delivering (it takes
     * these too) or this thread is inside a listener already (its own delivery goes on after it returns).
     */
    void deliver() {
        while (!queue.isEmpty()) {
            if (delivering.isHeldByCurrentThread() || !delivering.tryLock()) {
                return;
            }
            try {
                LiveDecision d;
                while ((d = queue.poll()) != null) {
                    queued.decrementAndGet();
                    for (LiveListener l : listeners) {
                        try {
                            l.onDecision(d);
                        } catch (Throwable t) {
                            contained(t);
                        }
                    }
                }
            } finally {
                delivering.unlock();
            }
        }
    }

    /** On the filtering thread: a stage that acted. */
    void stage(StageRecord record) {
        if (listeners.isEmpty()) {
            return;
        }
        StageRecord previous = lastStage.get();
        boolean changed = previous == null
                || previous.action() != record.action()
                || previous.mode() != record.mode()
                || !previous.endpoints().equals(record.endpoints());
        changed = changed && lastStage.compareAndSet(previous, record);
        for (LiveListener l : listeners) {
            try {
                l.onStageRequest(record);
                if (changed) {
                    l.onStage(record);
                }
            } catch (Throwable t) {
                contained(t);
            }
        }
    }

    /** On the filtering thread: a stage that did nothing, so the next one that acts is a change. */
    void noStage() {
        if (lastStage.get() != null) {
            lastStage.set(null);
        }
    }

    private void contained(Throwable t) {
        errors.increment();
        if (t instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
    }

    List<LiveListener> listeners() {
        return listeners;
    }
}
