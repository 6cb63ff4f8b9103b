package dev.outlierlab.engine.event;

/** A consecutive-error detection: the counter reached the configured threshold. */
public record ConsecutiveEvidence(long consecutiveErrors, long threshold) implements DetectionEvidence {
}
