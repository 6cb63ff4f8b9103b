package dev.outlierlab.engine.grpc;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link GrpcDetector} counted, under the names the lab's reports use for Envoy's
 * {@code outlier_detection.*} statistics where one means the same (gRPC itself exports no such counters;
 * grpc-java only logs each ejection on the channel logger).
 */
public record GrpcStats(
        long detectedSuccessRate,
        long enforcedSuccessRate,
        long detectedFailurePercentage,
        long enforcedFailurePercentage,
        long overflow,
        long unenforced,
        long returns,
        long sweeps,
        int ejectedNow) {

    public long detectedTotal() {
        return detectedSuccessRate + detectedFailurePercentage;
    }

    public long enforcedTotal() {
        return enforcedSuccessRate + enforcedFailurePercentage;
    }

    /** The counters by name, in a fixed order. */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("ejections_active", (long) ejectedNow);
        m.put("ejections_detected_success_rate", detectedSuccessRate);
        m.put("ejections_enforced_success_rate", enforcedSuccessRate);
        m.put("ejections_detected_failure_percentage", detectedFailurePercentage);
        m.put("ejections_enforced_failure_percentage", enforcedFailurePercentage);
        m.put("ejections_enforced_total", enforcedTotal());
        m.put("ejections_overflow", overflow);
        m.put("ejections_unenforced", unenforced);
        m.put("returns", returns);
        m.put("sweeps", sweeps);
        return m;
    }
}
