package dev.outlierlab.engine.envoy.detect;

/**
 * Failure-percentage outlier detection, the second half of Envoy's {@code processSuccessRateEjections}: over
 * hosts with at least {@code failure_percentage_request_volume} requests in the judged bucket, when at least
 * {@code failure_percentage_minimum_hosts} qualify, each host whose failure percentage
 * ({@code 100.0 - success rate}) is at or above {@code failure_percentage_threshold} is an outlier. Unlike
 * success rate, the threshold is fixed, so a cluster-wide failure ejects as far as the cap allows.
 */
public final class FailurePercentageDetector {
    private FailurePercentageDetector() {}

    public static double failurePercent(double successRatePercent) {
        return 100.0 - successRatePercent;
    }

    public static boolean isOutlier(double successRatePercent, long thresholdPercent) {
        return failurePercent(successRatePercent) >= thresholdPercent;
    }

    public static boolean hasVolume(long requests, long requestVolume) {
        return SuccessRateDetector.hasVolume(requests, requestVolume);
    }

    public static boolean enoughHosts(int qualifyingHosts, long minimumHosts) {
        return SuccessRateDetector.enoughHosts(qualifyingHosts, minimumHosts);
    }
}
