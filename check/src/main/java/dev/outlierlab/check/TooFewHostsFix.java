package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.List;

/**
 * The fix for a detector that never runs because the cluster has fewer hosts than its {@code *_minimum_hosts}
 * (Envoy's {@code DetectorImpl::processSuccessRateEjections} in source/common/upstream/outlier_detection_impl.cc
 * skips each detector below its minimum). {@code check}'s finding and {@code run}'s verdict both take it from here,
 * so that one cluster gets one fix.
 *
 * <p>Lowering the minimum to the cluster's size is the fix, except for success rate when the cluster is too small for
 * its factor to ever eject: one host among N can be at most {@code sqrt(N - 1)} standard deviations below the mean,
 * so at Envoy's default factor 1.9 four hosts (1.73) never give an outlier. Success rate would then run and never
 * eject; failure percentage, which compares each host with a fixed threshold, is enabled instead.
 */
public final class TooFewHostsFix {
    private TooFewHostsFix() {}

    /**
     * The changes that let detector {@code type} of {@code c} act on {@code hosts} hosts, in Envoy's field paths
     * ({@code outlier_detection.*}), the first with the reason.
     */
    public static List<FixStyle.Change> of(OutlierDetectionConfig c, int hosts, EjectionType type) {
        if (type == EjectionType.SUCCESS_RATE
                && hosts < SuccessRateFactorCheck.smallestClusterThatCanEject(c.successRateStdevFactor())) {
            return List.of(
                    new FixStyle.Change(
                            "outlier_detection.enforcing_failure_percentage",
                            100,
                            "success rate cannot eject among " + hosts + " hosts at factor "
                                    + FindingSink.fmt(c.successRateStdevFactor() / 1000.0)
                                    + ", so lowering success_rate_minimum_hosts to " + hosts + " is not enough"),
                    new FixStyle.Change("outlier_detection.failure_percentage_minimum_hosts", hosts));
        }
        OutlierSetting minimum = type == EjectionType.SUCCESS_RATE
                ? OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS
                : OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS;
        return List.of(new FixStyle.Change(
                "outlier_detection." + minimum.envoyName(),
                hosts,
                type == EjectionType.SUCCESS_RATE
                        ? "with so few hosts, one bad host moves the mean a lot"
                        : "each host is compared with the threshold, which needs no crowd"));
    }
}
