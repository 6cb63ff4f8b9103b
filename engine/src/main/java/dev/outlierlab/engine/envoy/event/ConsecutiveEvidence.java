package dev.outlierlab.engine.envoy.event;

/** A consecutive-error detection: the counter reached the configured threshold. */
public record ConsecutiveEvidence(long consecutiveErrors, long threshold) implements DetectionEvidence {}
