package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.EndpointEjections;
import dev.outlierlab.engine.envoy.Origin;
import dev.outlierlab.engine.envoy.event.HostSample;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import java.util.ArrayList;
import java.util.List;

/**
 * What one sweep of {@link GrpcDetector} judged, for charts (built only when the listener wants intervals, as
 * Envoy's detector builds its interval evaluations): every endpoint with calls in the interval, ejected ones
 * included as grpc-java's {@code DetectionTimer} counts them, and success rate's mean, standard deviation and
 * required rate in percent when it ran.
 */
final class SweepReport {
    private boolean successRateRan;
    private double meanPercent;
    private double stdevPercent;
    private double requiredPercent;
    private boolean failurePercentageRan;

    /** At the start of a sweep: neither algorithm has run. */
    void reset() {
        successRateRan = false;
        meanPercent = Double.NaN;
        stdevPercent = Double.NaN;
        requiredPercent = Double.NaN;
        failurePercentageRan = false;
    }

    void successRate(double mean, double stdev, double required) {
        successRateRan = true;
        meanPercent = mean;
        stdevPercent = stdev;
        requiredPercent = required;
    }

    void failurePercentageRan() {
        failurePercentageRan = true;
    }

    IntervalEvaluation evaluation(long t, EndpointEjections endpoints, long[] successes, long[] failures) {
        List<HostSample> samples = new ArrayList<>();
        for (int i = 0, n = endpoints.size(); i < n; i++) {
            long calls = successes[i] + failures[i];
            if (calls > 0) {
                samples.add(new HostSample(endpoints.name(i), calls, successes[i], successes[i] * 100.0 / calls));
            }
        }
        return new IntervalEvaluation(
                t,
                Origin.EXTERNAL,
                samples,
                successRateRan,
                meanPercent,
                stdevPercent,
                requiredPercent,
                failurePercentageRan);
    }
}
