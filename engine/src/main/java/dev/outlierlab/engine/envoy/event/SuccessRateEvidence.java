package dev.outlierlab.engine.envoy.event;

/**
 * A success-rate detection: the host's rate in the judged interval was strictly below
 * {@code mean - (stdevFactor / 1000) * stdev} over the {@code hostsEvaluated} hosts with enough volume.
 */
public record SuccessRateEvidence(
        double hostSuccessRatePercent,
        long hostRequests,
        double meanPercent,
        double stdevPercent,
        long stdevFactor,
        double thresholdPercent,
        int hostsEvaluated)
        implements DetectionEvidence {}
