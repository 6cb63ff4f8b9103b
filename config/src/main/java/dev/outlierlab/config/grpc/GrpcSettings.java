package dev.outlierlab.config.grpc;

import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import java.util.List;
import java.util.Objects;

/**
 * The gRPC outlier-detection settings a run uses and where they came from: a scenario's {@code grpc:} block, a
 * gRPC service config, or an Envoy {@code outlier_detection} read as gRPC's xDS client maps it, with a note for
 * each field that gRPC ignores.
 *
 * @param origin what the settings were read from, for reports (e.g. {@code "the scenario's grpc block"})
 * @param notes  one line per field given that gRPC ignores, empty when none
 */
public record GrpcSettings(GrpcOutlierConfig config, String origin, List<String> notes) {
    public GrpcSettings {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(origin, "origin");
        notes = List.copyOf(notes);
    }

    /** The same settings for another implementation (java, go, core). */
    public GrpcSettings withConfig(GrpcOutlierConfig newConfig) {
        return new GrpcSettings(newConfig, origin, notes);
    }
}
