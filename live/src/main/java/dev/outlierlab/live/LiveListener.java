package dev.outlierlab.live;

/**
 * Receives a pool's decisions and stage records. Decisions arrive on whichever thread is draining the pool
 * (a filtering thread, a recording thread whose ring was full, or the tick thread), one at a time and in
 * order, under the pool's lock: keep them short. Stage records arrive on the filtering thread, concurrently.
 * An exception thrown here is counted ({@link PoolCounters#listenerErrors()}) and otherwise ignored, so a
 * listener can never fail a request.
 */
public interface LiveListener {
    default void onDecision(LiveDecision decision) {
    }

    default void onStage(StageRecord stage) {
    }
}
