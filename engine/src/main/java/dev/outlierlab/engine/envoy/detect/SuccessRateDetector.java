package dev.outlierlab.engine.envoy.detect;

import java.util.List;

/**
 * Success-rate outlier detection, Envoy's {@code successRateEjectionThreshold} and the success-rate half of
 * {@code processSuccessRateEjections}: over the hosts with enough volume, when there are at least
 * {@code success_rate_minimum_hosts} of them, the threshold is {@code mean - (factor / 1000) * stdev} with the
 * population standard deviation, and every host strictly below it is an outlier. Arithmetic is done in the
 * order the lab model fixes, so that results agree to the last bit.
 */
public final class SuccessRateDetector {
    private SuccessRateDetector() {}

    /** Mean, population standard deviation and threshold of one evaluation. */
    public record Threshold(double mean, double stdev, double threshold) {}

    /**
     * The threshold for these success rates (percent), in the given order.
     *
     * @param ratesPercent success rates of the hosts with enough volume
     * @param stdevFactor  {@code success_rate_stdev_factor}, in thousandths
     */
    public static Threshold threshold(List<Double> ratesPercent, long stdevFactor) {
        int n = ratesPercent.size();
        double sum = 0;
        for (double r : ratesPercent) {
            sum += r;
        }
        double mean = sum / n;
        double variance = 0;
        for (double r : ratesPercent) {
            double d = r - mean;
            variance += d * d;
        }
        variance /= n;
        double stdev = Math.sqrt(variance);
        return new Threshold(mean, stdev, mean - (stdevFactor / 1000.0) * stdev);
    }

    /** Whether a host's rate makes it an outlier: strictly below the threshold. */
    public static boolean isOutlier(double ratePercent, Threshold threshold) {
        return ratePercent < threshold.threshold();
    }

    /**
     * Whether a rate lies so close to the threshold (within 1e-9 percentage points) that the order in which the
     * rates are summed, which Envoy leaves to its hash map, could put it on either side.
     */
    public static boolean isBorderline(double ratePercent, Threshold threshold) {
        return Math.abs(ratePercent - threshold.threshold()) <= 1e-9;
    }

    /** Whether a host with this many requests in the judged bucket is counted ({@code >= volume}, and not empty). */
    public static boolean hasVolume(long requests, long requestVolume) {
        return requests > 0 && requests >= requestVolume;
    }

    /** Whether enough hosts qualified for the detector to run at all. */
    public static boolean enoughHosts(int qualifyingHosts, long minimumHosts) {
        return qualifyingHosts > 0 && qualifyingHosts >= minimumHosts;
    }
}
