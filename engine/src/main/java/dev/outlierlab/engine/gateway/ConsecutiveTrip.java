package dev.outlierlab.engine.gateway;

/**
 * The hard trip's numbers: the consecutive failures counted and the setting they reached.
 */
public record ConsecutiveTrip(long consecutive, int threshold) implements GatewayEvidence {}
