package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Detectors that are dead or add nothing: a consecutive-error threshold of 0 that is still enforced (Envoy
 * detects when the count, after adding the failure, equals the threshold, so 0 is never reached), and a
 * gateway-failure threshold at or above the 5xx threshold while 5xx is fully enforced (every gateway failure,
 * 502, 503 or 504, is also a 5xx, and both counts reset on a success, so the 5xx detector gets there first or
 * on the same response).
 */
final class DetectorSanityCheck {
    private DetectorSanityCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        for (EjectionType t : List.of(
                EjectionType.CONSECUTIVE_5XX,
                EjectionType.CONSECUTIVE_GATEWAY_FAILURE,
                EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE)) {
            if (t == EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE && !c.splitExternalLocalOriginErrors()) {
                continue;
            }
            OutlierSetting threshold = Detectors.threshold(t);
            if (c.enforcingPercent(t) > 0 && c.get(threshold) == 0) {
                Map<String, Object> n = new LinkedHashMap<>();
                n.put(threshold.envoyName(), 0L);
                n.put(t.enforcingSetting().envoyName(), c.enforcingPercent(t));
                sink.add(
                        Rule.DETECTOR_THRESHOLD_ZERO,
                        Severity.WARNING,
                        threshold.envoyName() + " is 0 but "
                                + t.enforcingSetting().envoyName() + " is " + c.enforcingPercent(t)
                                + ": Envoy detects when the "
                                + "count of failures in a row, after adding one, equals the threshold, so a count that starts at "
                                + "1 never equals 0 and this detector never fires",
                        n,
                        List.of(new FixStyle.Change(
                                "outlier_detection." + threshold.envoyName(),
                                threshold.defaultValue(),
                                "Envoy's default")),
                        sink.target().line());
            }
        }
        long n5xx = c.consecutive5xx();
        long nGateway = c.consecutiveGatewayFailure();
        if (Detectors.canEject(c, EjectionType.CONSECUTIVE_GATEWAY_FAILURE)
                && Detectors.canEject(c, EjectionType.CONSECUTIVE_5XX)
                && c.enforcingPercent(EjectionType.CONSECUTIVE_5XX) == 100
                && nGateway >= n5xx) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("consecutive_gateway_failure", nGateway);
            n.put("consecutive_5xx", n5xx);
            n.put("enforcing_consecutive_5xx", 100L);
            sink.add(
                    Rule.GATEWAY_REDUNDANT,
                    Severity.NOTE,
                    "consecutive_gateway_failure " + nGateway + " adds nothing to "
                            + "consecutive_5xx " + n5xx
                            + ": every gateway failure (502, 503, 504) is also a 5xx and a success resets "
                            + "both counts, so the 5xx detector (enforced at 100 %) reaches " + n5xx
                            + " on the same response or "
                            + "earlier. A gateway threshold below " + n5xx
                            + " ejects hosts whose failures are gateway errors sooner",
                    n,
                    List.of(),
                    sink.target().line());
        }
    }
}
