package dev.outlierlab.engine.envoy.event;

/**
 * How long an ejected host stays out: {@code min(base * multiplier, max) + jitter}, with the multiplier as
 * it stands after this ejection. The host returns at the first interval tick at or after
 * {@code ejectedAt + durationNanos}.
 */
public record EjectionTime(long multiplier, long baseNanos, long maxNanos, long jitterNanos, long durationNanos) {}
