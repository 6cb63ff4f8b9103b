package dev.outlierlab.sim.scenario;

/**
 * A change of the cluster's request rate: from {@code atNanos} on, {@code rps} requests per second (0 pauses
 * traffic), until the next step or the end of the run.
 */
public record RateStep(long atNanos, long rps) {}
