package dev.outlierlab.engine.envoy;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Envoy's {@code cluster.<name>.outlier_detection.*} statistics, under Envoy's names: the gauge
 * {@code ejections_active}, the counters {@code ejections_overflow}, {@code ejections_enforced_total},
 * {@code ejections_detected_*} and {@code ejections_enforced_*} per type, and the deprecated
 * {@code ejections_total}, {@code ejections_consecutive_5xx} and {@code ejections_success_rate}, counted
 * exactly where {@code outlier_detection_impl.cc} counts them; from Envoy 1.38 also {@code
 * ejections_detected_degradation}, one for each time {@code detect_degraded_hosts} marks a host degraded (envoyproxy/envoy
 * pull 41852); a degraded host is not ejected and never counts in {@code ejections_active}.
 */
public final class OutlierStats {
    private static final EjectionType[] TYPES = EjectionType.values();

    private long ejectionsActive;
    private long ejectionsOverflow;
    private long ejectionsEnforcedTotal;
    private final long[] detected = new long[TYPES.length];
    private final long[] enforced = new long[TYPES.length];
    private long ejectionsTotal;
    private long ejectionsConsecutive5xx;
    private long ejectionsSuccessRate;
    private final boolean degradationCounter;
    private long ejectionsDetectedDegradation;

    /** Statistics without the 1.38 counter {@code ejections_detected_degradation}. */
    public OutlierStats() {
        this(false);
    }

    /** Statistics of a release; from 1.38 they include {@code ejections_detected_degradation}. */
    public OutlierStats(boolean degradationCounter) {
        this.degradationCounter = degradationCounter;
    }

    void incActive() {
        ejectionsActive++;
    }

    void decActive() {
        ejectionsActive--;
    }

    void incOverflow() {
        ejectionsOverflow++;
    }

    void incDetected(EjectionType type) {
        detected[type.ordinal()]++;
    }

    void incEnforced(EjectionType type) {
        ejectionsEnforcedTotal++;
        enforced[type.ordinal()]++;
    }

    void incDeprecatedTotal() {
        ejectionsTotal++;
    }

    void incDeprecatedConsecutive5xx() {
        ejectionsConsecutive5xx++;
    }

    void incDeprecatedSuccessRate() {
        ejectionsSuccessRate++;
    }

    void incDetectedDegradation() {
        ejectionsDetectedDegradation++;
    }

    /** Times a host was marked degraded ({@code ejections_detected_degradation}, Envoy 1.38). */
    public long ejectionsDetectedDegradation() {
        return ejectionsDetectedDegradation;
    }

    public long ejectionsActive() {
        return ejectionsActive;
    }

    public long ejectionsOverflow() {
        return ejectionsOverflow;
    }

    public long ejectionsEnforcedTotal() {
        return ejectionsEnforcedTotal;
    }

    public long detected(EjectionType type) {
        return detected[type.ordinal()];
    }

    public long enforced(EjectionType type) {
        return enforced[type.ordinal()];
    }

    /** Every detection of every type, before the cap and enforcement. */
    public long detectedTotal() {
        long sum = 0;
        for (long d : detected) {
            sum += d;
        }
        return sum;
    }

    /** All statistics by Envoy's name (without the {@code outlier_detection.} prefix), in a fixed order. */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("ejections_active", ejectionsActive);
        m.put("ejections_overflow", ejectionsOverflow);
        m.put("ejections_enforced_total", ejectionsEnforcedTotal);
        for (EjectionType t : TYPES) {
            m.put("ejections_detected_" + t.statSuffix(), detected[t.ordinal()]);
            m.put("ejections_enforced_" + t.statSuffix(), enforced[t.ordinal()]);
        }
        if (degradationCounter) {
            // Envoy 1.38's detect_degraded_hosts counts each host it marks degraded
            m.put("ejections_detected_degradation", ejectionsDetectedDegradation);
        }
        m.put("ejections_total", ejectionsTotal);
        m.put("ejections_consecutive_5xx", ejectionsConsecutive5xx);
        m.put("ejections_success_rate", ejectionsSuccessRate);
        return m;
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
