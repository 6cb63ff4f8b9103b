package dev.outlierlab.live;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One bounded multi-producer, single-consumer ring of outcomes. A slot is two longs of one preallocated
 * {@code long[]}, the outcome's time and a word holding its payload (see {@link OutcomeRings#payload})
 * and, in the top bit, the parity of the lap of the ring it was written in: four slots share a cache line.
 * A producer claims a position with one compare-and-set on the tail, writes the time and publishes the slot
 * with a release store of the word. The consumer (always under the pool's lock) knows a slot is published
 * when its parity is the current lap's, reads in claim order, and frees what it has read in bulk with one
 * release store of the head, never writing to the slots, so a drain costs producers no cache-line misses
 * beyond the one that moves each line of outcomes to the draining core. Producers read the head only when
 * the free space they last saw runs out. Nothing is allocated after construction.
 */
final class OutcomeStripe {
    /** {@link #offer} accepted the outcome. */
    static final int ACCEPTED = 0;
    /** {@link #offer} accepted it, and the ring is more than three quarters full: a drain is due. */
    static final int ACCEPTED_HIGH = 1;
    /** {@link #offer} refused it: the ring is full. */
    static final int FULL = 2;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle TAIL;
    private static final VarHandle LIMIT;
    private static final VarHandle HEAD;
    private static final long PARITY = 1L << 63;
    /** Consumed positions between two releases of the head while a batch is applied. */
    private static final int RELEASE_EVERY = 64;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(OutcomeStripe.class, "tail", long.class);
            LIMIT = lookup.findVarHandle(OutcomeStripe.class, "producerLimit", long.class);
            HEAD = lookup.findVarHandle(OutcomeStripe.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Padding gives each of three groups its own cache line: the producers' (tail, limit), the head (written by
    // the consumer, read by producers when their view of the free space runs out) and the consumer's own
    // cursor, written for every outcome taken, which must not be on a line that producers read.
    @SuppressWarnings("unused")
    private long p1, p2, p3, p4, p5, p6, p7;
    private volatile long tail;
    /**
     * The producers' shared view of the first position not yet free ({@code head + capacity} as some producer
     * last read it): a hint written without ordering, only ever to a value the limit has had, which never
     * decreases, so a stale one is too small and costs one more read of the head.
     */
    private long producerLimit;

    @SuppressWarnings("unused")
    private long q1, q2, q3, q4, q5, q6, q7;
    private volatile long head;
    @SuppressWarnings("unused")
    private long r1, r2, r3, r4, r5, r6, r7;
    /** Consumer only: the next position to read, and the end of the current batch. */
    private long cursor;

    private long batchEnd;
    private long batchLatestTime;
    @SuppressWarnings("unused")
    private long s1, s2, s3, s4, s5, s6, s7;
    private final long[] slots;
    private final int mask;
    private final int capacity;
    private final int lapShift;
    /** Written only by {@link #offerOwned} (one thread at a time), so every position before the tail is published. */
    private final boolean owned;

    OutcomeStripe(int capacity, boolean owned) {
        this.owned = owned;
        if (Integer.bitCount(capacity) != 1 || capacity < 4) {
            throw new IllegalArgumentException("ring capacity must be a power of two of at least 4, not " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.lapShift = Integer.numberOfTrailingZeros(capacity);
        this.slots = new long[capacity * 2];
        for (int i = 0; i < capacity; i++) {
            slots[2 * i + 1] = PARITY; // lap -1: nothing published
        }
        this.producerLimit = capacity;
    }

    /**
     * Appends an outcome ({@code payload} must leave the top bit clear): {@link #ACCEPTED},
     * {@link #ACCEPTED_HIGH} or {@link #FULL}. Lock-free and allocation-free.
     */
    int offer(long timeNanos, long payload) {
        long pos = tail;
        while (true) {
            long limit = limitFor(pos);
            if (pos >= limit) {
                return FULL;
            }
            if (TAIL.weakCompareAndSet(this, pos, pos + 1)) {
                int index = (int) (pos & mask) << 1;
                slots[index] = timeNanos;
                SLOT.setRelease(slots, index + 1, payload | ((pos >>> lapShift) << 63));
                return pos >= limit - (capacity >>> 2) ? ACCEPTED_HIGH : ACCEPTED;
            }
            pos = tail;
        }
    }

    /**
     * {@link #offer} for the ring's single producer, the thread that owns it: the same slots and states, with
     * no compare-and-set (a release store of the tail after the slot's).
     */
    int offerOwned(long timeNanos, long payload) {
        long pos = tail;
        long limit = limitFor(pos);
        if (pos >= limit) {
            return FULL;
        }
        int index = (int) (pos & mask) << 1;
        slots[index] = timeNanos;
        SLOT.setRelease(slots, index + 1, payload | ((pos >>> lapShift) << 63));
        TAIL.setRelease(this, pos + 1);
        return pos >= limit - (capacity >>> 2) ? ACCEPTED_HIGH : ACCEPTED;
    }

    /**
     * The producers' limit for a claim at {@code pos}: the cached one, read again from the head once the claim
     * is within a quarter of it (so producers read the drainer's line rarely). A limit at or below {@code pos}
     * means the ring is full.
     */
    private long limitFor(long pos) {
        long limit = (long) LIMIT.getOpaque(this);
        if (pos >= limit - (capacity >>> 2)) {
            limit = head + capacity;
            LIMIT.setOpaque(this, limit);
        }
        return limit;
    }

    /** Whether every outcome claimed has been taken. Consumer only. */
    boolean isEmpty() {
        return head == tail;
    }

    /**
     * Starts a batch: the published outcomes from the head on, in claim order, at most {@code max}. Returns
     * how many. {@link #batchLatestTime()} is then the time of the last of them in an owned ring (one thread's
     * outcomes, whose times follow its clock), the latest time among them in a shared one. An owned ring's
     * batch is found from its tail alone; a shared ring's by reading each slot's lap parity. Consumer only.
     */
    int beginBatch(int max) {
        long h = head;
        cursor = h;
        long limit = h + Math.min(max, capacity);
        long end;
        long latest = Long.MIN_VALUE;
        if (owned) {
            end = Math.min(tail, limit);
            if (end > h) {
                latest = slots[(int) ((end - 1) & mask) << 1];
            }
        } else {
            end = h;
            while (end < limit) {
                int index = (int) (end & mask) << 1;
                long word = (long) SLOT.getAcquire(slots, index + 1);
                if ((word ^ ((end >>> lapShift) << 63)) < 0) {
                    break; // the parity is the previous lap's: not yet published
                }
                latest = Math.max(latest, slots[index]);
                end++;
            }
        }
        batchEnd = end;
        batchLatestTime = latest;
        return (int) (end - h);
    }

    long batchLatestTime() {
        return batchLatestTime;
    }

    /** Whether the current batch has an outcome left. Consumer only. */
    boolean inBatch() {
        return cursor < batchEnd;
    }

    /** The time of the batch's next outcome; call only when {@link #inBatch()}. */
    long nextTime() {
        return slots[(int) (cursor & mask) << 1];
    }

    /**
     * Applies the batch's next outcome whatever its time, then the following ones while their time is at most
     * {@code until}; returns how many. Frees the slots taken every {@value #RELEASE_EVERY} outcomes, so that a
     * producer waiting for room does not wait for the whole batch. Consumer only.
     */
    int applyRun(OutcomeSink drain, long until) {
        long c = cursor;
        cursor = runFrom(this, c, slots[(int) (c & mask) << 1], until, drain);
        return (int) (cursor - c);
    }

    /**
     * Applies ring {@code r}'s batch from position {@code c}, whose time is {@code time}: that outcome whatever
     * its time, then the following ones while their time is at most {@code until}; returns the position after
     * the last one applied. Frees the slots taken every {@value #RELEASE_EVERY} outcomes, so that a producer
     * waiting for room does not wait for the whole batch. Consumer only.
     */
    private static long runFrom(OutcomeStripe r, long c, long time, long until, OutcomeSink drain) {
        long end = r.batchEnd;
        long[] s = r.slots;
        int m = r.mask;
        do {
            long payload = s[((int) (c & m) << 1) + 1] & ~PARITY;
            c++;
            if ((c & (RELEASE_EVERY - 1)) == 0) {
                HEAD.setRelease(r, c);
            }
            drain.apply(time, payload);
        } while (c < end && (time = s[(int) (c & m) << 1]) <= until);
        return c;
    }

    /**
     * {@link OutcomeRings}'s merge of exactly two rings' batches, {@code a} the lower ring, in one loop over
     * both: the same outcomes in the same order as two {@link #applyRun} calls per step would give. At each step
     * the rings whose next outcome is at most {@code bound} compete; the earlier next outcome goes first (on a
     * tie, {@code a}'s), and its ring goes on while its outcomes are at most the other ring's next one (or the
     * bound, when the other does not compete). When recording threads' times interleave closely, a run is one
     * outcome long; taking it here, without a call and a search of the rings per outcome, is what makes a
     * drain of two busy threads' rings about as cheap as a drain of one. Returns how many were applied.
     * Consumer only.
     */
    static int mergeTwo(OutcomeStripe a, OutcomeStripe b, OutcomeSink drain, long bound) {
        long ca = a.cursor;
        long cb = b.cursor;
        long ea = a.batchEnd;
        long eb = b.batchEnd;
        long[] sa = a.slots;
        long[] sb = b.slots;
        int ma = a.mask;
        int mb = b.mask;
        int applied = 0;
        while (true) {
            long ta = ca < ea ? sa[(int) (ca & ma) << 1] : 0;
            long tb = cb < eb ? sb[(int) (cb & mb) << 1] : 0;
            boolean aCompetes = ca < ea && ta <= bound;
            boolean bCompetes = cb < eb && tb <= bound;
            if (aCompetes && (!bCompetes || ta <= tb)) {
                long from = ca;
                ca = runFrom(a, ca, ta, bCompetes ? tb : bound, drain);
                applied += (int) (ca - from);
            } else if (bCompetes) {
                long from = cb;
                cb = runFrom(b, cb, tb, aCompetes ? ta : bound, drain);
                applied += (int) (cb - from);
            } else {
                a.cursor = ca;
                b.cursor = cb;
                return applied;
            }
        }
    }

    /** Frees every slot taken so far for producers. Consumer only. */
    void release() {
        if (head != cursor) {
            HEAD.setRelease(this, cursor);
        }
    }

    /** Whether an outcome is published and not yet taken: a hint, callable from any thread. */
    boolean hasPending() {
        long h = head;
        long word = (long) SLOT.getAcquire(slots, ((int) (h & mask) << 1) + 1);
        return (word ^ ((h >>> lapShift) << 63)) >= 0;
    }

    /** Outcomes ever accepted (claimed) by this stripe. */
    long accepted() {
        return tail;
    }
}
