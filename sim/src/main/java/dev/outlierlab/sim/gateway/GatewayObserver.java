package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.stage.CandidateStage;

/**
 * Sees a gateway run request by request: each stage (after it filtered the list), each attempt (before
 * its outcome is recorded) and each detector event as it happens. For outputs such as {@code --stages FILE} and for tests that check invariants
 * against the detector's state at every step. Must not change the run.
 */
public interface GatewayObserver {
    GatewayObserver NONE = new GatewayObserver() {};

    /** The stage ran for {@code request} in {@code process} at {@code nowNanos}, leaving {@code candidates[start, start + count)} (read them, never write them). */
    default void onStage(
            long request, int process, long nowNanos, CandidateStage stage, int[] candidates, int start, int count) {}

    /** Attempt number {@code attempt} (0 first) of {@code request} goes to {@code endpoint} with this outcome. */
    default void onAttempt(
            long request,
            int process,
            long nowNanos,
            int attempt,
            int endpoint,
            int outcome,
            GatewayDetector detector) {}

    /** A detector event, as it happens (after the run's own recorder has it). */
    default void onEvent(GatewayEvent event) {}
}
