package dev.outlierlab.engine.envoy.event;

/** The numbers a detector saw when it detected a host. */
public sealed interface DetectionEvidence permits ConsecutiveEvidence, SuccessRateEvidence, FailurePercentageEvidence {}
