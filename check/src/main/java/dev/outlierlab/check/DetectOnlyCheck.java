package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settings the file chose that cannot eject or have no effect: a gateway-failure or failure-percentage detector
 * whose enforcing percentage is 0 (it detects and never ejects), and {@code consecutive_local_origin_failure}
 * without {@code split_external_local_origin_errors} (local-origin errors then count as 5xx).
 */
final class DetectOnlyCheck {
    private DetectOnlyCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        CheckTarget target = sink.target();
        if (Chosen.value(c, OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE)
                && c.consecutiveGatewayFailure() > 0
                && c.enforcingPercent(EjectionType.CONSECUTIVE_GATEWAY_FAILURE) == 0) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_gateway_failure", c.consecutiveGatewayFailure());
            n.put("enforcing_consecutive_gateway_failure", 0L);
            sink.add(
                    Rule.GATEWAY_DETECT_ONLY,
                    Severity.WARNING,
                    "consecutive_gateway_failure " + c.consecutiveGatewayFailure()
                            + " only detects: enforcing_consecutive_gateway_failure is 0, so "
                            + c.consecutiveGatewayFailure()
                            + " gateway errors in a row are counted but never eject",
                    n,
                    List.of(new FixStyle.Change("outlier_detection.enforcing_consecutive_gateway_failure", 100)),
                    target.line());
        }
        boolean fpConfigured = Chosen.value(c, OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD)
                || Chosen.value(c, OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS)
                || Chosen.value(c, OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);
        if (fpConfigured && c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE) == 0) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("failure_percentage_threshold", c.failurePercentageThreshold());
            n.put("enforcing_failure_percentage", 0L);
            sink.add(
                    Rule.FAILURE_PERCENTAGE_DETECT_ONLY,
                    Severity.WARNING,
                    "failure-percentage detection is configured "
                            + "(threshold " + c.failurePercentageThreshold()
                            + " %) but enforcing_failure_percentage is 0, so "
                            + "it detects and never ejects",
                    n,
                    List.of(new FixStyle.Change("outlier_detection.enforcing_failure_percentage", 100)),
                    target.line());
        }
        if (Chosen.value(c, OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE) && !c.splitExternalLocalOriginErrors()) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_local_origin_failure", c.consecutiveLocalOriginFailure());
            n.put("split_external_local_origin_errors", false);
            sink.add(
                    Rule.LOCAL_ORIGIN_IGNORED,
                    Severity.WARNING,
                    "consecutive_local_origin_failure "
                            + c.consecutiveLocalOriginFailure()
                            + " has no effect without split_external_local_origin_errors: "
                            + "local-origin errors count as 5xx instead",
                    n,
                    List.of(new FixStyle.Change("outlier_detection.split_external_local_origin_errors", true)),
                    target.line());
        }
    }
}
