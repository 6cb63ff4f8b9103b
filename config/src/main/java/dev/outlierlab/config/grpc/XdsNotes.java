package dev.outlierlab.config.grpc;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.XdsOutlierMapping;
import java.util.ArrayList;
import java.util.List;

/**
 * Envoy settings read as gRPC's xDS client reads them ({@link XdsOutlierMapping}), with the notes a report shows:
 * each explicit field gRPC ignores, and the detectors Envoy runs by default that gRPC does not have.
 */
public final class XdsNotes {
    private XdsNotes() {}

    /** The settings for a gRPC client of a cluster with these Envoy settings; {@code origin} names the source. */
    public static GrpcSettings settings(
            OutlierDetectionConfig envoy, GrpcImplementation implementation, String origin) {
        XdsOutlierMapping mapping = XdsOutlierMapping.of(envoy, implementation);
        List<String> notes = new ArrayList<>();
        for (String field : mapping.ignored()) {
            notes.add("outlier_detection." + field + " is ignored by gRPC (gRFC A50 maps only success rate, failure"
                    + " percentage, the interval, the ejection times and the cap)");
        }
        if (envoy.consecutive5xx() > 0 && !mapping.ignored().contains("consecutive_5xx")) {
            boolean sr = mapping.config().successRate() != null;
            boolean fp = mapping.config().failurePercentage() != null;
            String left = sr && fp
                    ? "only success rate and failure percentage eject"
                    : sr ? "only success rate ejects" : fp ? "only failure percentage ejects" : "nothing ejects";
            notes.add("consecutive_5xx (Envoy's default 5, enforced at 100 %) does not exist in gRPC: " + left);
        }
        if (mapping.config().failurePercentage() == null) {
            notes.add("failure percentage is off: enforcing_failure_percentage is "
                    + (envoy.isExplicit(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE)
                            ? "0"
                            : "unset (Envoy's " + "default 0), and " + implementation.label()
                                    + " then leaves failure_percentage_ejection unset"));
        } else if (implementation == GrpcImplementation.JAVA
                && !envoy.isExplicit(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE)) {
            notes.add("failure percentage is on: enforcing_failure_percentage is unset, and grpc-java (1.85.1) then "
                    + "runs failure_percentage_ejection with its own defaults (threshold "
                    + mapping.config().failurePercentage().threshold() + ", enforcement 100 where Envoy's is 0); "
                    + "grpc-go and C-core leave it off");
        }
        if (mapping.config().successRate() == null) {
            notes.add("success rate is off: enforcing_success_rate: 0 leaves success_rate_ejection unset in gRPC");
        }
        return new GrpcSettings(mapping.config(), origin, notes);
    }
}
