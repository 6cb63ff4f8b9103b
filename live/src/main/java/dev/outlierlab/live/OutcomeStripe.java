package dev.outlierlab.live;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One bounded multi-producer, single-consumer ring of outcomes (Dmitry Vyukov's bounded queue): each slot
 * carries a sequence number, the outcome's time and its payload in one preallocated {@code long[]}. A
 * producer claims a slot with one compare-and-set on the tail, writes it and publishes it with a release
 * store of the sequence; the consumer (always under the pool's lock) reads in claim order. Nothing is
 * allocated after construction. A full ring refuses the offer; the caller then drains it itself.
 */
final class OutcomeStripe {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle TAIL;
    private static final int STRIDE = 4;

    static {
        try {
            TAIL = MethodHandles.lookup().findVarHandle(OutcomeStripe.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Padding keeps the producers' tail off the cache lines of neighbouring stripes and of the head.
    @SuppressWarnings("unused")
    private long p1, p2, p3, p4, p5, p6, p7;
    private volatile long tail;
    @SuppressWarnings("unused")
    private long q1, q2, q3, q4, q5, q6, q7;
    private long head;
    private final long[] slots;
    private final int mask;

    OutcomeStripe(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two, not " + capacity);
        }
        this.mask = capacity - 1;
        this.slots = new long[capacity * STRIDE];
        for (int i = 0; i < capacity; i++) {
            slots[i * STRIDE] = i;
        }
    }

    /** Appends an outcome; false when the ring is full. Lock-free and allocation-free. */
    boolean offer(long timeNanos, long payload) {
        long pos = tail;
        while (true) {
            int index = (int) (pos & mask) * STRIDE;
            long seq = (long) SLOT.getAcquire(slots, index);
            long dif = seq - pos;
            if (dif == 0) {
                if (TAIL.weakCompareAndSet(this, pos, pos + 1)) {
                    slots[index + 1] = timeNanos;
                    slots[index + 2] = payload;
                    SLOT.setRelease(slots, index, pos + 1);
                    return true;
                }
                pos = tail;
            } else if (dif < 0) {
                return false;
            } else {
                pos = tail;
            }
        }
    }

    /**
     * Hands published outcomes to {@code drain} in claim order: the first one whatever its time (the caller
     * chose this stripe as the earliest), then while their time is at most {@code until}, at most
     * {@code budget} in all. Each slot is freed for producers before its outcome is applied. Consumer only.
     * Returns how many it handed over.
     */
    int drainTo(OutcomeDrain drain, long until, int budget) {
        int n = 0;
        long h = head;
        while (n < budget) {
            int index = (int) (h & mask) * STRIDE;
            if ((long) SLOT.getAcquire(slots, index) != h + 1) {
                break;
            }
            long time = slots[index + 1];
            if (n > 0 && time > until) {
                break;
            }
            long payload = slots[index + 2];
            SLOT.setRelease(slots, index, h + mask + 1);
            head = ++h;
            n++;
            drain.apply(time, payload);
        }
        return n;
    }

    /** Whether the next slot is published. Consumer only. */
    boolean hasNext() {
        int index = (int) (head & mask) * STRIDE;
        return (long) SLOT.getAcquire(slots, index) == head + 1;
    }

    /** The time of the next published outcome; call only after {@link #hasNext()}. */
    long peekTime() {
        return slots[(int) (head & mask) * STRIDE + 1];
    }

    /** Outcomes ever accepted (claimed) by this stripe. */
    long accepted() {
        return tail;
    }
}
