package dev.outlierlab.engine.envoy.event;

import dev.outlierlab.engine.envoy.Origin;
import java.util.List;

/**
 * What one interval tick saw for one origin: every host not ejected with traffic in the judged bucket, and,
 * when success rate ran, its mean, standard deviation and threshold (NaN when it did not run).
 */
public record IntervalEvaluation(
        long timeNanos,
        Origin origin,
        List<HostSample> samples,
        boolean successRateRan,
        double meanPercent,
        double stdevPercent,
        double thresholdPercent,
        boolean failurePercentageRan) {}
