package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.EndpointEjections;
import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;

/**
 * gRPC's two outlier-ejection algorithms over the interval a sweep judges, after grpc-java's
 * {@code SuccessRateOutlierEjectionAlgorithm} and {@code FailurePercentageOutlierEjectionAlgorithm} with the grpc-go
 * and C-core variants of {@link GrpcImplementation}: each takes the endpoints with the request volume (ejected ones
 * included), runs only with the minimum of them, and offers every outlier it finds for ejection, in endpoint order.
 */
final class OutlierAlgorithms {
    /** Where an outlier is offered: the cap, the enforcement draw and the ejection. */
    @FunctionalInterface
    interface Offer {
        void offer(int endpoint, long t, EjectionType type, DetectionEvidence evidence, int enforcing);
    }

    private final GrpcImplementation impl;
    private final CallCounters calls;
    private final EndpointEjections ejections;
    private final SweepReport report;
    private int[] candidates;
    private double[] rates;
    private long detectedSuccessRate;
    private long detectedFailurePercentage;

    OutlierAlgorithms(GrpcImplementation impl, CallCounters calls, EndpointEjections ejections, SweepReport report) {
        this.impl = impl;
        this.calls = calls;
        this.ejections = ejections;
        this.report = report;
        resize(ejections.size());
    }

    /** Room for {@code endpoints} endpoints (after one is added). */
    void resize(int endpoints) {
        candidates = new int[endpoints];
        rates = new double[endpoints];
    }

    /** Success-rate outliers found so far. */
    long detectedSuccessRate() {
        return detectedSuccessRate;
    }

    /** Failure-percentage outliers found so far. */
    long detectedFailurePercentage() {
        return detectedFailurePercentage;
    }

    /** The endpoints with at least {@code volume} calls in the judged interval (C-core: and at least one). */
    private int withVolume(long volume) {
        int count = 0;
        for (int i = 0, n = ejections.size(); i < n; i++) {
            long v = calls.volume(i);
            if (v >= volume && (impl != GrpcImplementation.CORE || v > 0)) {
                candidates[count++] = i;
            }
        }
        return count;
    }

    void successRate(long t, SuccessRateEjection sr, Offer offer) {
        int count = withVolume(sr.requestVolume());
        if (count == 0 || count < sr.minimumHosts()) {
            return;
        }
        double scale = impl == GrpcImplementation.CORE ? 100.0 : 1.0;
        double sum = 0;
        for (int k = 0; k < count; k++) {
            int i = candidates[k];
            double rate = impl == GrpcImplementation.CORE
                    ? calls.successes(i) * 100.0 / calls.volume(i)
                    : (double) calls.successes(i) / (double) calls.volume(i);
            rates[k] = rate;
            sum += rate;
        }
        double mean = sum / count;
        double squares = 0;
        for (int k = 0; k < count; k++) {
            double d = rates[k] - mean;
            squares += d * d;
        }
        double stdev = Math.sqrt(squares / count);
        // grpc-java divides the factor in float (stdevFactor / 1000f); grpc-go and C-core in double.
        double factor =
                impl == GrpcImplementation.JAVA ? (double) (sr.stdevFactor() / 1000f) : sr.stdevFactor() / 1000.0;
        double required = mean - stdev * factor;
        report.successRate(mean * 100 / scale, stdev * 100 / scale, required * 100 / scale);
        for (int k = 0; k < count; k++) {
            if (rates[k] < required) {
                int i = candidates[k];
                long volume = calls.volume(i);
                DetectionEvidence evidence = new SuccessRateEvidence(
                        rates[k] * 100 / scale,
                        volume,
                        mean * 100 / scale,
                        stdev * 100 / scale,
                        sr.stdevFactor(),
                        required * 100 / scale,
                        count);
                detectedSuccessRate++;
                offer.offer(i, t, EjectionType.SUCCESS_RATE, evidence, sr.enforcementPercentage());
            }
        }
    }

    void failurePercentage(long t, FailurePercentageEjection fp, Offer offer) {
        int count = withVolume(fp.requestVolume());
        if (count == 0 || count < fp.minimumHosts()) {
            return;
        }
        report.failurePercentageRan();
        for (int k = 0; k < count; k++) {
            int i = candidates[k];
            if (impl == GrpcImplementation.CORE && ejections.isEjected(i)) {
                continue; // C-core: "make sure success rate algorithm didn't already eject this backend"
            }
            long volume = calls.volume(i);
            double percent = FailurePercentages.failurePercent(impl, calls.successes(i), calls.failures(i));
            boolean outlier =
                    FailurePercentages.failureOutlier(impl, calls.failures(i), volume, percent, fp.threshold());
            if (outlier) {
                detectedFailurePercentage++;
                offer.offer(
                        i,
                        t,
                        EjectionType.FAILURE_PERCENTAGE,
                        new FailurePercentageEvidence(percent, volume, fp.threshold(), count),
                        fp.enforcementPercentage());
            }
        }
    }
}
