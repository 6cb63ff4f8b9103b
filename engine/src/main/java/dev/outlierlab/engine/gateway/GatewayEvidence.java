package dev.outlierlab.engine.gateway;

/**
 * The numbers behind a gateway ejection: a {@link ConsecutiveTrip} or a {@link SuccessRateJudgement}.
 */
public sealed interface GatewayEvidence permits ConsecutiveTrip, SuccessRateJudgement {}
