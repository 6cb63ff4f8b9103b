package dev.outlierlab.check;

import dev.outlierlab.engine.envoy.EjectionPolicy;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;

/** The ejection cap's arithmetic over cluster sizes, by the engine's own rule ({@link EjectionPolicy#checkCap})
 * for the Envoy release checked. */
final class CapArithmetic {
    private CapArithmetic() {}

    /** {@link #capAllows(OutlierDetectionConfig, int, int, EnvoyVersion)} by Envoy 1.40's rule. */
    static boolean capAllows(OutlierDetectionConfig c, int ejected, int size) {
        return capAllows(c, ejected, size, EnvoyVersion.DEFAULT);
    }

    /** {@link #maxEjectable(OutlierDetectionConfig, int, EnvoyVersion)} by Envoy 1.40's rule. */
    static int maxEjectable(OutlierDetectionConfig c, int size) {
        return maxEjectable(c, size, EnvoyVersion.DEFAULT);
    }

    /** {@link #smallestPercent(OutlierDetectionConfig, int, int, EnvoyVersion)} by Envoy 1.40's rule. */
    static Long smallestPercent(OutlierDetectionConfig c, int ejected, int size) {
        return smallestPercent(c, ejected, size, EnvoyVersion.DEFAULT);
    }

    static boolean capAllows(OutlierDetectionConfig c, int ejected, int size, EnvoyVersion v) {
        return new EjectionPolicy(c, () -> 0L, v).checkCap(ejected, size).allowed();
    }

    /** The smallest max_ejection_percent (without always_eject_one_host) that lets the next host go. */
    static Long smallestPercent(OutlierDetectionConfig c, int ejected, int size, EnvoyVersion v) {
        for (long p = 0; p <= 100; p++) {
            OutlierDetectionConfig candidate = c.toBuilder()
                    .set(OutlierSetting.MAX_EJECTION_PERCENT, p)
                    .set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, false)
                    .build();
            if (capAllows(candidate, ejected, size, v)) {
                return p;
            }
        }
        return null;
    }

    /** How many hosts the cap lets be ejected at once. */
    static int maxEjectable(OutlierDetectionConfig c, int size, EnvoyVersion v) {
        int k = 0;
        while (k < size && capAllows(c, k, size, v)) {
            k++;
        }
        return k;
    }
}
