package dev.outlierlab.live;

/**
 * The consuming side of a live pool's rings, used only under the pool's lock: it takes outcomes out of the
 * {@link OutcomeRings}'s stripes merged by time and applies each to the profile's {@link PoolDetector}
 * at its time, running the work due before it first, as the lab's trace replay does. It keeps the map from
 * endpoint numbers to members, so that an outcome of a removed endpoint still in a ring is discarded, and the
 * engine's current time: an outcome stamped before it counts at it (the engine's time never goes back), one
 * stamped after the drain's own time at the drain's time.
 */
final class OutcomeDrain implements OutcomeSink {
    private final OutcomeRings recorder;
    private final PoolDetector detector;
    private final int limit;
    private Endpoint[] byId = new Endpoint[16];
    private long drainNanos;
    private long lastAppliedNanos;
    private long appliedLocked;
    private long discardedLocked;
    /** Published after each drain, for counters read without the lock. */
    private volatile long applied;

    private volatile long discarded;

    OutcomeDrain(OutcomeRings recorder, PoolDetector detector, int limit) {
        this.recorder = recorder;
        this.detector = detector;
        this.limit = limit;
    }

    /** The engine's time: the latest time applied, never less than any outcome's or drain's before it. */
    long lastAppliedNanos() {
        return lastAppliedNanos;
    }

    void register(Endpoint endpoint) {
        if (endpoint.id() >= byId.length) {
            Endpoint[] grown = new Endpoint[Math.max(byId.length * 2, endpoint.id() + 1)];
            System.arraycopy(byId, 0, grown, 0, byId.length);
            byId = grown;
        }
        byId[endpoint.id()] = endpoint;
    }

    void unregister(Endpoint endpoint) {
        byId[endpoint.id()] = null;
    }

    long applied() {
        return applied;
    }

    long discarded() {
        return discarded;
    }

    /**
     * Applies what the rings hold (at most two ring-sets' worth, so that producers cannot keep the drainer
     * forever), then runs the work due at {@code nowNanos}.
     */
    void drain(long nowNanos) {
        drain(nowNanos, 1, true);
    }

    /**
     * {@link #drain(long)}, stopping early once a batch brings fewer than {@code enough} outcomes: a recording
     * thread that drains to make room stops there rather than chase the others' outcomes one by one while they
     * keep recording (the next drain takes the rest). {@code bounded} false merges all that is published,
     * without waiting for a ring that lags in time (see {@link OutcomeRings#drainBatch}): what a thread
     * whose ring is still full after a drain does, since a ring whose outcomes are all later than another
     * busy thread's could otherwise wait as long as that thread keeps recording.
     */
    void drain(long nowNanos, int enough, boolean bounded) {
        drainNanos = nowNanos;
        int budget = limit;
        int n;
        while (budget > 0 && (n = recorder.drainBatch(this, budget, bounded)) > 0) {
            budget -= n;
            if (n < enough) {
                break;
            }
        }
        applied = appliedLocked;
        discarded = discardedLocked;
        if (nowNanos > lastAppliedNanos) {
            detector.runDue(nowNanos);
            lastAppliedNanos = nowNanos;
        }
    }

    /** One outcome taken from a ring: {@code stamped} is its time, or negative for "at the drain's time". */
    @Override
    public void apply(long stamped, long payload) {
        long time = Math.max(stamped < 0 ? drainNanos : Math.min(stamped, drainNanos), lastAppliedNanos);
        lastAppliedNanos = time;
        int id = OutcomeRings.endpointId(payload);
        Endpoint endpoint = id < byId.length ? byId[id] : null;
        if (endpoint == null) {
            discardedLocked++;
            return;
        }
        detector.apply(endpoint, OutcomeRings.code(payload), time);
        appliedLocked++;
    }
}
