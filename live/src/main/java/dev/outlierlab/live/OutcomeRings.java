package dev.outlierlab.live;

import dev.outlierlab.engine.Outcome;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The lock-free front of a live pool: outcomes from any thread go into rings ({@link OutcomeStripe}) in
 * lanes chosen by the recording thread's id (Fibonacci hashing), and the pool's drainer takes them out
 * merged by time. Each lane has two rings. The first thread to record in a lane owns it and writes its
 * owned ring as its single producer, with plain and release stores only: on this path a record has no
 * atomic read-modify-write, which costs more than the rest of the record on common hardware. Other threads
 * of the lane share its second ring, claiming slots with a compare-and-set. A lane whose owner has
 * terminated is given up, once its ring is empty, by {@link #releaseLanesOfDeadThreads()}, for the next
 * thread to claim. A thread records into one ring as long as it owns its lane or never does, so one
 * recording thread's outcomes keep their order.
 */
final class OutcomeRings {
    private static final VarHandle OWNER = MethodHandles.arrayElementVarHandle(Thread[].class);

    /** Each lane's owned ring, then each lane's shared ring: the drain's order among equal times. */
    private final OutcomeStripe[] stripes;

    private final Thread[] owners;
    private final int lanes;
    /** The stripes with outcomes in the current batch. Consumer only. */
    private final OutcomeStripe[] active;

    private final int shift;

    OutcomeRings(int laneCount, int capacityPerStripe) {
        if (Integer.bitCount(laneCount) != 1) {
            throw new IllegalArgumentException("stripe count must be a power of two, not " + laneCount);
        }
        lanes = laneCount;
        owners = new Thread[laneCount];
        stripes = new OutcomeStripe[2 * laneCount];
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new OutcomeStripe(capacityPerStripe, i < laneCount);
        }
        active = new OutcomeStripe[stripes.length];
        shift = 64 - Integer.numberOfTrailingZeros(laneCount);
    }

    /**
     * An outcome's payload: the endpoint's number (non-negative) in bits 16 to 46 and the code (an HTTP
     * status or a negative {@link Outcome} code) in the low 16 bits; the top bit stays
     * clear for the ring's lap parity.
     */
    static long payload(int endpointId, int code) {
        return ((long) endpointId << 16) | (code & 0xffffL);
    }

    static int endpointId(long payload) {
        return (int) (payload >>> 16);
    }

    static int code(long payload) {
        return (short) payload;
    }

    /**
     * Appends an outcome from the calling thread: {@link OutcomeStripe#ACCEPTED},
     * {@link OutcomeStripe#ACCEPTED_HIGH} (a drain is due) or {@link OutcomeStripe#FULL} (drain, then offer
     * again). Lock-free and allocation-free.
     */
    int offer(long timeNanos, long payload) {
        Thread me = Thread.currentThread();
        int lane = 0;
        if (lanes > 1) {
            @SuppressWarnings("deprecation")
            long id = me.getId();
            lane = (int) ((id * 0x9E3779B97F4A7C15L) >>> shift);
        }
        Object owner = owners[lane];
        if (owner == me || (owner == null && OWNER.compareAndSet(owners, lane, null, me))) {
            return stripes[lane].offerOwned(timeNanos, payload);
        }
        return stripes[lanes + lane].offer(timeNanos, payload);
    }

    /** The thread that owns a lane, or null. */
    Thread ownerOfLane(int lane) {
        return owners[lane];
    }

    /**
     * Gives up each lane whose owner has terminated and whose owned ring is empty, for another thread to
     * claim. A terminated thread writes nothing more, and all it wrote is visible once
     * {@link Thread#isAlive()} says so. Consumer only.
     */
    void releaseLanesOfDeadThreads() {
        for (int lane = 0; lane < lanes; lane++) {
            Thread owner = owners[lane];
            if (owner != null && !owner.isAlive() && stripes[lane].isEmpty()) {
                OWNER.setRelease(owners, lane, null);
            }
        }
    }

    boolean hasPending() {
        for (OutcomeStripe s : stripes) {
            if (s.hasPending()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Applies one batch to {@code drain}, merged by time, and returns how many outcomes it applied (0 when
     * none is published). The batch is what each ring has published, at most {@code max} from each; of it,
     * every outcome up to the bound, the earliest of the rings' latest times (see
     * {@link OutcomeStripe#batchLatestTime()}), so that the ring furthest behind in time is taken whole and
     * the others' later outcomes wait for what it publishes next. Within a ring outcomes go in claim order (a
     * ring's run stops at its first outcome after the bound); between rings the earliest next outcome goes
     * first (on a tie, a run from one ring goes on, and a run starts from the lower ring, owned rings before
     * shared ones). With one ring holding outcomes (one
     * recording thread) this is claim order. Without {@code bounded}, or when the bound would leave the whole
     * batch waiting (a ring's times out of order), the whole batch is merged. Consumer only.
     */
    int drainBatch(OutcomeSink drain, int max, boolean bounded) {
        int count = 0;
        long bound = Long.MAX_VALUE;
        for (OutcomeStripe s : stripes) {
            if (s.beginBatch(max) > 0) {
                active[count++] = s;
                bound = Math.min(bound, s.batchLatestTime());
            }
        }
        if (count == 0) {
            return 0;
        }
        int applied = count == 1
                ? active[0].applyRun(drain, Long.MAX_VALUE)
                : merge(drain, count, bounded ? bound : Long.MAX_VALUE);
        if (applied == 0) {
            applied = merge(drain, count, Long.MAX_VALUE);
        }
        for (int i = 0; i < count; i++) {
            active[i].release();
            active[i] = null;
        }
        return applied;
    }

    /** Merges the {@code count} active rings' batches up to {@code bound}, in runs. */
    private int merge(OutcomeSink drain, int count, long bound) {
        if (count == 2) {
            return OutcomeStripe.mergeTwo(active[0], active[1], drain, bound);
        }
        return mergeRuns(active, count, drain, bound);
    }

    /**
     * {@link #merge} of any number of rings ({@code active[0, count)}, in ring order): a search for the ring
     * with the earliest next outcome, then a run from it, and again.
     */
    static int mergeRuns(OutcomeStripe[] active, int count, OutcomeSink drain, long bound) {
        int applied = 0;
        while (true) {
            OutcomeStripe best = null;
            long bestTime = Long.MAX_VALUE;
            long nextTime = bound;
            for (int i = 0; i < count; i++) {
                OutcomeStripe s = active[i];
                if (s.inBatch()) {
                    long t = s.nextTime();
                    if (t > bound) {
                        continue;
                    }
                    if (best == null || t < bestTime) {
                        if (best != null) {
                            nextTime = Math.min(nextTime, bestTime);
                        }
                        best = s;
                        bestTime = t;
                    } else {
                        nextTime = Math.min(nextTime, t);
                    }
                }
            }
            if (best == null) {
                return applied;
            }
            // A run from the earliest ring up to the next ring's head (on a tie, a lower ring's goes first).
            applied += best.applyRun(drain, nextTime);
        }
    }

    long accepted() {
        long sum = 0;
        for (OutcomeStripe s : stripes) {
            sum += s.accepted();
        }
        return sum;
    }
}
