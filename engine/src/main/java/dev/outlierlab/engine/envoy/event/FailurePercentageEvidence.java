package dev.outlierlab.engine.envoy.event;

/** A failure-percentage detection: the host's failure percentage was at or above the fixed threshold. */
public record FailurePercentageEvidence(
        double hostFailurePercent, long hostRequests, long thresholdPercent, int hostsEvaluated)
        implements DetectionEvidence {}
