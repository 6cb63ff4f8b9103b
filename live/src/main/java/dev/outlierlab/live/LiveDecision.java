package dev.outlierlab.live;

import dev.outlierlab.engine.stage.StageMode;

/**
 * One decision of a pool's detector about one endpoint, delivered to {@link LiveListener#onDecision}.
 *
 * @param timeNanos nanoseconds since the pool started (the same time base as the lab's)
 * @param pool      the pool's name
 * @param endpoint  the endpoint's name
 * @param kind      eject, return or refused
 * @param mode      the mode when it was decided; an ejection in {@link StageMode#SHADOW} is virtual
 * @param reason    why, in the profile's words: the detector for ejections and refusals (Envoy's stat suffix,
 *                  e.g. {@code consecutive_5xx}), {@code overflow} or {@code unenforced} for refusals, the
 *                  reason for returns
 * @param detail    the engine's own event with every number behind the decision (for the Envoy profile an
 *                  {@code OutlierEvent})
 */
public record LiveDecision(
        long timeNanos,
        String pool,
        String endpoint,
        DecisionKind kind,
        StageMode mode,
        String reason,
        Object detail) {}
