package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.List;

/**
 * What a cluster's file chose, as opposed to what Envoy's defaults ({@code OutlierDetection}'s field comments
 * in {@code api/envoy/config/cluster/v3/outlier_detection.proto}, applied by {@code DetectorConfig}'s
 * constructor in {@code source/common/upstream/outlier_detection_impl.cc}) do on their own. The severity policy
 * of {@code check} (docs/check.md, "Severities") is written in these terms: a value equal to Envoy's default
 * counts as the default whether or not it is written, and a detector the file names is one someone configured
 * to eject.
 */
final class Chosen {
    private static final List<OutlierSetting> SUCCESS_RATE = List.of(
            OutlierSetting.ENFORCING_SUCCESS_RATE,
            OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS,
            OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
            OutlierSetting.SUCCESS_RATE_STDEV_FACTOR);
    private static final List<OutlierSetting> FAILURE_PERCENTAGE = List.of(
            OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
            OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD,
            OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS,
            OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);
    private static final List<OutlierSetting> CONSECUTIVE = List.of(
            OutlierSetting.CONSECUTIVE_5XX,
            OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
            OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
            OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE,
            OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
            OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE);

    private Chosen() {}

    /** Set in the file to something other than Envoy's default. */
    static boolean value(OutlierDetectionConfig c, OutlierSetting s) {
        return c.isExplicit(s) && c.get(s) != s.defaultValue();
    }

    /** Whether the file names any setting of this detector (whatever its value): someone configured it. */
    static boolean detector(OutlierDetectionConfig c, EjectionType type) {
        List<OutlierSetting> settings = switch (type) {
            case SUCCESS_RATE, SUCCESS_RATE_LOCAL_ORIGIN -> SUCCESS_RATE;
            case FAILURE_PERCENTAGE, FAILURE_PERCENTAGE_LOCAL_ORIGIN -> FAILURE_PERCENTAGE;
            default -> CONSECUTIVE;
        };
        return settings.stream().anyMatch(c::isExplicit);
    }

    /** Whether the file configures any detector to eject, or leaves ejection entirely to Envoy's defaults. */
    static boolean ejection(OutlierDetectionConfig c) {
        return detector(c, EjectionType.CONSECUTIVE_5XX)
                || detector(c, EjectionType.SUCCESS_RATE)
                || detector(c, EjectionType.FAILURE_PERCENTAGE);
    }

    /**
     * A detector that cannot act here is a warning when the file configures it, a note when only Envoy's
     * default turns it on (success rate is enforced at 100 by default, and nobody asked for it).
     */
    static Severity severity(OutlierDetectionConfig c, EjectionType type) {
        return detector(c, type) ? Severity.WARNING : Severity.NOTE;
    }
}
