package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of Envoy's detectors can eject a host under a configuration: enforced (its {@code enforcing_*} above
 * 0) and, for the consecutive-error detectors, with a threshold above 0 (Envoy detects when the count, after
 * adding the failure, equals the threshold, so a threshold of 0 is never reached). The local-origin detectors
 * count only with {@code split_external_local_origin_errors}; without it local-origin errors are folded into
 * the 5xx detectors.
 */
final class Detectors {
    private Detectors() {}

    /** The detectors that can eject, by Envoy's detector name. */
    static List<String> live(OutlierDetectionConfig c) {
        List<String> out = new ArrayList<>();
        for (EjectionType t : applicable(c)) {
            if (canEject(c, t)) {
                out.add(t.statSuffix());
            }
        }
        return out;
    }

    /** The enforcement setting of each detector that applies (split mode adds the local-origin ones) and its value. */
    static Map<OutlierSetting, Long> enforcement(OutlierDetectionConfig c) {
        Map<OutlierSetting, Long> out = new LinkedHashMap<>();
        for (EjectionType t : applicable(c)) {
            out.put(t.enforcingSetting(), c.enforcingPercent(t));
        }
        return out;
    }

    static boolean canEject(OutlierDetectionConfig c, EjectionType t) {
        if (c.enforcingPercent(t) == 0) {
            return false;
        }
        OutlierSetting threshold = threshold(t);
        return threshold == null || c.get(threshold) > 0;
    }

    /** The consecutive threshold of a consecutive-error detector; null for the others. */
    static OutlierSetting threshold(EjectionType t) {
        return switch (t) {
            case CONSECUTIVE_5XX -> OutlierSetting.CONSECUTIVE_5XX;
            case CONSECUTIVE_GATEWAY_FAILURE -> OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE;
            case CONSECUTIVE_LOCAL_ORIGIN_FAILURE -> OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE;
            default -> null;
        };
    }

    private static List<EjectionType> applicable(OutlierDetectionConfig c) {
        List<EjectionType> out = new ArrayList<>(List.of(
                EjectionType.CONSECUTIVE_5XX,
                EjectionType.CONSECUTIVE_GATEWAY_FAILURE,
                EjectionType.SUCCESS_RATE,
                EjectionType.FAILURE_PERCENTAGE));
        if (c.splitExternalLocalOriginErrors()) {
            out.addAll(List.of(
                    EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                    EjectionType.SUCCESS_RATE_LOCAL_ORIGIN,
                    EjectionType.FAILURE_PERCENTAGE_LOCAL_ORIGIN));
        }
        return out;
    }
}
