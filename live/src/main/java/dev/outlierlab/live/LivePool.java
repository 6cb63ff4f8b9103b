package dev.outlierlab.live;

import dev.outlierlab.engine.stage.RotationGuard;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Outlier detection for one pool of endpoints in a running service: a thread-safe wrapper around one of the
 * engine's detectors, with a real clock and the three stage modes. Any thread may {@link #record} an outcome: it
 * goes, without a lock or an allocation, into a lock-free ring of its thread's lane ({@link OutcomeRings}).
 * Whoever next filters, ticks or reads a snapshot (or a recording thread whose ring fills) drains the rings under
 * the pool's lock, merged by time, into the single-threaded engine detector, which decides exactly as it does in
 * the lab; the decisions are published as volatile flags on each {@link Endpoint} ({@link DecisionPublisher}), so
 * {@link #filter} reads them without a lock. Build one with {@link LivePoolBuilder}; {@link #start()} runs the
 * Envoy profile's interval ticks on a daemon thread, or {@link #start(ScheduledExecutorService)} on the caller's
 * scheduler. The members are {@link PoolMembership}; the stage's counts, {@link StageTally}.
 */
public final class LivePool implements AutoCloseable {
    private static final long HEARTBEAT_NANOS = 1_000_000_000L;
    /** A drain that makes room in a ring stops after a batch smaller than this. */
    private static final int ROOM_BATCH = 64;

    private final String name;
    private final LiveClock clock;
    private final boolean stampAtRecord;
    private final long originNanos;
    private final OutcomeRings recorder;
    private final OutcomeDrain drain;
    private final OutcomeIntake intake;
    private final ReentrantLock lock = new ReentrantLock();
    private final PoolDetector detector;
    private final RotationGuard guard;
    private final PoolMembership members = new PoolMembership();
    private final ListenerDispatch listeners = new ListenerDispatch();
    private final DecisionPublisher decisions = new DecisionPublisher(this, listeners);
    private final PoolTicker ticker = new PoolTicker(this);
    private volatile StageMode mode;
    private volatile long nextDueNanos;

    private final LongAdder ignoredOff = new LongAdder();
    private final StageTally stages = new StageTally();

    LivePool(LivePoolBuilder b) {
        this.name = b.name;
        this.clock = b.clock;
        this.stampAtRecord = b.stampAtRecord;
        this.originNanos = clock.nanoTime();
        this.recorder = new OutcomeRings(b.stripes, b.ringCapacity);
        this.mode = b.mode;
        this.detector = b.detectorFactory.create(decisions);
        this.drain = new OutcomeDrain(recorder, detector, 2 * b.stripes * b.ringCapacity);
        this.intake = new OutcomeIntake(recorder, lock, this);
        this.guard = detector.guard();
        this.nextDueNanos = detector.nextDueNanos();
        for (String endpoint : b.endpoints) {
            add(endpoint);
        }
    }

    public String name() {
        return name;
    }

    /** The profile's name: {@code envoy}, {@code grpc} or {@code gateway}. */
    public String profile() {
        return detector.profile();
    }

    /**
     * Whether callers try the endpoints in their listed order, each next one a fallback (the gateway's), rather than
     * rotating over those in rotation (Envoy's and gRPC's load balancing).
     */
    public boolean triesInOrder() {
        return detector.triesInOrder();
    }

    /** Nanoseconds since the pool was built, on its clock: the time base of decisions and stage records. */
    public long nowNanos() {
        return clock.nanoTime() - originNanos;
    }

    public StageMode mode() {
        return mode;
    }

    /**
     * Switches the mode at once. Outcomes recorded before the switch are drained first. The detector's state
     * carries over: virtual ejections of shadow become real in prod, and real ones virtual in shadow; in off
     * nothing more is recorded, but ejections already made still run out at their time.
     */
    public void setMode(StageMode newMode) {
        Objects.requireNonNull(newMode, "mode");
        lockOutsideListener();
        try {
            drainLocked(nowNanos());
            mode = newMode;
        } finally {
            lock.unlock();
        }
        listeners.deliver();
    }

    /** Adds an endpoint at the end of the routing order; names are unique among current members. */
    public Endpoint add(String endpointName) {
        Objects.requireNonNull(endpointName, "endpoint name");
        lockOutsideListener();
        try {
            if (members.has(endpointName)) {
                throw new IllegalArgumentException("pool " + name + " already has an endpoint named " + endpointName);
            }
            long now = nowNanos();
            drainLocked(now);
            Endpoint endpoint = new Endpoint(endpointName, members.nextId(), this);
            drain.register(endpoint);
            detector.add(endpoint, Math.max(now, drain.lastAppliedNanos()));
            members.add(endpoint);
            return endpoint;
        } finally {
            lock.unlock();
            listeners.deliver();
        }
    }

    /**
     * Removes an endpoint. Its outcomes recorded before the call are applied first; any still in flight are
     * discarded (counted in {@link PoolCounters#discarded()}). Returns false if it was not a member.
     */
    public boolean remove(Endpoint endpoint) {
        lockOutsideListener();
        try {
            if (endpoint == null || endpoint.pool() != this || !members.contains(endpoint)) {
                return false;
            }
            long now = nowNanos();
            drainLocked(now);
            decisions.changing();
            detector.remove(endpoint, Math.max(now, drain.lastAppliedNanos()));
            endpoint.markRemoved();
            drain.unregister(endpoint);
            members.remove(endpoint);
            decisions.changed();
            return true;
        } finally {
            lock.unlock();
            listeners.deliver();
        }
    }

    /**
     * What cannot work with the pool's current members, as {@code check} would say it for a file (with
     * Envoy's defaults and three hosts, the cap admits no ejection); empty when all is well. The builder logs
     * these (java.util.logging / System.Logger, level WARNING) when it builds a pool with endpoints.
     */
    public List<String> warnings() {
        return detector.warnings(members.view().size());
    }

    /** The members in routing order (a snapshot that does not change). */
    public List<Endpoint> endpoints() {
        return members.view();
    }

    /** The current member with this name, or null. */
    public Endpoint endpoint(String endpointName) {
        return members.named(endpointName);
    }

    /**
     * Records an attempt that got an HTTP status (100 to 599), at the time read now from the pool's clock.
     * Any thread; no lock and no allocation unless the recording thread's ring is full, when it drains the
     * pool itself. Returns false, recording nothing, in {@link StageMode#OFF}. A caller that reads the clock
     * for the attempt anyway (to time it) should pass that reading to {@link #record(Endpoint, int, long)}
     * instead: the clock read is most of this call's cost.
     */
    public boolean record(Endpoint endpoint, int status) {
        return record(endpoint, status, stampAtRecord ? clock.nanoTime() : 0);
    }

    /** Records an attempt that ended without a status (a timeout, a refused connection or a reset), now. */
    public boolean record(Endpoint endpoint, LocalFailure failure) {
        return record(endpoint, failure, stampAtRecord ? clock.nanoTime() : 0);
    }

    /**
     * Records an attempt that got an HTTP status (100 to 599) and ended at {@code clockNanos}, a reading of
     * this pool's {@link #clock()} ({@link System#nanoTime()} unless the builder set another) that the caller
     * took when the attempt ended: what the failover client and the proxy do, since they time each attempt.
     * The outcome counts at that time, exactly as if {@link #record(Endpoint, int)} had been called then. A
     * time before the latest outcome already applied counts at that outcome's time (the engine's time never
     * goes back), and a time after the drain that applies it counts at the drain's time, so a wrong reading
     * cannot move the detector ahead of the clock. Same threading and cost as {@link #record(Endpoint, int)},
     * without the clock read. A pool built with {@link LivePoolBuilder#stampOutcomesAtDrain()} ignores the time.
     */
    public boolean record(Endpoint endpoint, int status, long clockNanos) {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status " + status + " is not an HTTP status (100 to 599)");
        }
        return enqueue(endpoint, status, clockNanos);
    }

    /** {@link #record(Endpoint, LocalFailure)} for an attempt that ended at {@code clockNanos} on {@link #clock()}. */
    public boolean record(Endpoint endpoint, LocalFailure failure, long clockNanos) {
        return enqueue(endpoint, failure.code(), clockNanos);
    }

    /** The pool's clock: the time base of {@link #record(Endpoint, int, long)}. */
    public LiveClock clock() {
        return clock;
    }

    private boolean enqueue(Endpoint endpoint, int code, long clockNanos) {
        if (endpoint.pool() != this) {
            throw foreign(endpoint);
        }
        if (mode == StageMode.OFF) {
            ignoredOff.increment();
            return false;
        }
        long payload = OutcomeRings.payload(endpoint.id(), code);
        // Without stamping, -1 sorts first and is applied at the drain's time (never before the last applied).
        long time = stampAtRecord ? Math.max(0, clockNanos - originNanos) : -1;
        // Not through the intake: it lies next to the drain, which the draining thread writes for every outcome.
        int offered = recorder.offer(time, payload);
        if (offered != OutcomeStripe.ACCEPTED) {
            intake.offered(offered, time, payload);
        }
        return true;
    }

    /**
     * The stage for one request: returns the candidates to route over, in the given (routing) order, and the
     * stage record when the stage acted. Never returns an empty list for a non-empty input, and never throws
     * because of the detector. Drains pending outcomes first when no other thread is draining.
     */
    public Selection filter(List<Endpoint> candidates) {
        StageMode current = mode;
        stages.filtering();
        if (current == StageMode.OFF) {
            return new Selection(candidates, null);
        }
        long now = nowNanos();
        if ((now >= nextDueNanos || recorder.hasPending()) && !lock.isHeldByCurrentThread() && lock.tryLock()) {
            try {
                drainLocked(now);
            } finally {
                lock.unlock();
            }
            listeners.deliver();
        }
        StageFilter.Filtered outcome = StageFilter.filter(this, candidates, current, guard, now);
        if (outcome.action() == StageAction.NONE) {
            listeners.noStage();
            return new Selection(outcome.candidates(), null);
        }
        stages.acted(outcome.action());
        StageRecord stage =
                new StageRecord(now, stages.filtered() - 1, name, current, outcome.action(), outcome.named());
        listeners.stage(stage);
        return new Selection(outcome.candidates(), stage);
    }

    /**
     * Filters every current member (the usual case: the pool is the candidate list). It reads the members as
     * published by the last {@link #add} or {@link #remove}, one immutable list, so a membership change on
     * another thread cannot shrink the list while the stage walks it.
     */
    public Selection filter() {
        return filter(members.view());
    }

    /**
     * Drains every recorded outcome and runs the work due now (ticks); what the tick thread calls. It also
     * frees the ring lanes of recording threads that have terminated.
     */
    public void runDue() {
        lockOutsideListener();
        try {
            drainLocked(nowNanos());
            recorder.releaseLanesOfDeadThreads();
        } finally {
            lock.unlock();
        }
        listeners.deliver();
    }

    /**
     * Adds a listener. It may block or throw without harm to the pool: see {@link LiveListener} for the
     * threads it is called on, and {@link PoolCounters#listenerErrors()} and
     * {@link PoolCounters#decisionsDropped()} for what is counted.
     */
    public void addListener(LiveListener listener) {
        listeners.add(listener);
    }

    public void removeListener(LiveListener listener) {
        listeners.remove(listener);
    }

    /**
     * Drains, then returns every endpoint's state, the profile's statistics and the counters. Like
     * {@link #runDue()}, it frees the ring lanes of recording threads that have terminated.
     */
    public PoolSnapshot snapshot() {
        lockOutsideListener();
        try {
            long now = nowNanos();
            drainLocked(now);
            recorder.releaseLanesOfDeadThreads();
            List<Endpoint> current = members.view();
            List<EndpointState> states = new ArrayList<>(current.size());
            for (Endpoint e : current) {
                states.add(detector.state(e));
            }
            return new PoolSnapshot(name, detector.profile(), now, mode, states, detector.stats(), counters());
        } finally {
            lock.unlock();
            listeners.deliver();
        }
    }

    /** The counters now, without draining (pending outcomes show as {@link PoolCounters#pending()}). */
    public PoolCounters counters() {
        return new PoolCounters(
                recorder.accepted(),
                drain.applied(),
                drain.discarded(),
                ignoredOff.sum(),
                stages.filtered(),
                stages.count(StageAction.EJECT),
                stages.count(StageAction.KEPT_ALL),
                stages.count(StageAction.WOULD_EJECT),
                listeners.errors(),
                listeners.dropped());
    }

    /** Runs interval ticks on one daemon thread of the pool's own until {@link #close()}. */
    public LivePool start() {
        ticker.startOwn();
        return this;
    }

    /** Runs interval ticks on the caller's scheduler until {@link #close()}; the scheduler is not shut down. */
    public LivePool start(ScheduledExecutorService scheduler) {
        ticker.start(scheduler);
        return this;
    }

    /** Stops the ticks (and the pool's own thread); recording and filtering keep working. */
    @Override
    public void close() {
        ticker.stop();
    }

    /** Delay until the next tick, capped at one second so outcomes are drained at least that often. */
    long nanosUntilDue() {
        return Math.max(0, Math.min(nextDueNanos - nowNanos(), HEARTBEAT_NANOS));
    }

    /**
     * Takes the pool's lock, refusing a thread that holds it already: that is a listener calling back into
     * the pool while the engine is in the middle of a decision.
     */
    void lockOutsideListener() {
        if (lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("pool " + name + ": the pool's lock is held by this thread already");
        }
        lock.lock();
    }

    IllegalArgumentException foreign(Endpoint endpoint) {
        return new IllegalArgumentException("endpoint " + endpoint.name() + " belongs to another pool than " + name
                + "; use the handles this pool's add, endpoint or endpoints returned");
    }

    /** The sequence lock's version: odd while a decision or a membership change is being published. */
    long decisionVersion() {
        return decisions.version();
    }

    /**
     * Drains now to make room in a ring; the caller holds the lock. {@code whole}: merge all that is published
     * (the ring is still full after a drain).
     */
    void drainForRoom(boolean whole) {
        drain.drain(nowNanos(), ROOM_BATCH, !whole);
        nextDueNanos = detector.nextDueNanos();
    }

    private void drainLocked(long nowNanos) {
        drain.drain(nowNanos);
        nextDueNanos = detector.nextDueNanos();
    }
}
