package dev.outlierlab.live;

/**
 * How a {@link LivePool}'s decisions reach the threads that route: the engine detector's decision (under the pool's
 * lock) sets the endpoint's volatile ejected flag, which {@link LivePool#filter} reads without a lock, inside a
 * sequence lock (the version is odd while a decision or a membership change is being published, so a reader that
 * sees the same even version before and after its reads saw none half done); then the pool's listeners are told.
 */
final class DecisionPublisher implements DecisionSink {
    private final LivePool pool;
    private final ListenerDispatch listeners;
    /** Even when nothing is being published; odd while something is. Written under the pool's lock. */
    private volatile long version;

    DecisionPublisher(LivePool pool, ListenerDispatch listeners) {
        this.pool = pool;
        this.listeners = listeners;
    }

    /** Called by the detector, under the lock, for each decision. */
    @Override
    public void decided(Endpoint endpoint, DecisionKind kind, long timeNanos, String reason, Object detail) {
        version++;
        if (kind == DecisionKind.EJECT) {
            endpoint.publishEjected(true);
        } else if (kind == DecisionKind.RETURN) {
            endpoint.publishEjected(false);
        }
        version++;
        listeners.decided(new LiveDecision(timeNanos, pool.name(), endpoint.name(), kind, pool.mode(), reason, detail));
    }

    /** Under the lock: a change of the members starts being published. */
    void changing() {
        version++;
    }

    /** Under the lock: the change is published. */
    void changed() {
        version++;
    }

    long version() {
        return version;
    }
}
