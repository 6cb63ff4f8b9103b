package dev.outlierlab.live;

/**
 * Receives a pool's decisions and stage records. Decisions arrive one at a time and in order, after the
 * pool's lock is released, on a thread that filtered, ticked, took a snapshot or changed the pool (never on a
 * thread that was only recording); a listener may call any method of the pool. {@link #onStage} arrives on
 * the filtering thread when what the stage does changes (an endpoint leaves the candidates, another one
 * joins, the guard keeps them all, the mode changes), {@link #onStageRequest} for every request the stage
 * acted on (for a per-request trace such as the proxy's {@code --stages}). Whatever a listener throws,
 * {@link Error}s included, is caught and counted ({@link PoolCounters#listenerErrors()}), so a listener can
 * never fail a request or disturb the detector. Mirrors Envoy's outlier event logger
 * ({@code EventLoggerImpl::logEject}), which logs each ejection once.
 */
public interface LiveListener {
    default void onDecision(LiveDecision decision) {}

    /** The stage acted differently from the request before (or acted after doing nothing). */
    default void onStage(StageRecord stage) {}

    /** The stage acted on this request; concurrent, on the filtering thread. */
    default void onStageRequest(StageRecord stage) {}
}
