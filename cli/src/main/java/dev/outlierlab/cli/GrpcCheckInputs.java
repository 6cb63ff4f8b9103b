package dev.outlierlab.cli;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.grpc.GrpcChecks;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.ServiceConfigReader;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code check} reads for gRPC clients: a gRPC service config (a JSON object with {@code loadBalancingConfig}
 * or {@code outlier_detection_experimental} at the top), and with {@code --profile grpc} Envoy clusters as a gRPC
 * client reads them through xDS. Their findings are {@link GrpcChecks}'.
 */
final class GrpcCheckInputs {
    private GrpcCheckInputs() {}

    /** Whether {@code text} is a gRPC service config rather than Envoy or Kubernetes configuration. */
    static boolean isServiceConfig(String text) {
        String t = text.strip();
        return t.startsWith("{")
                && (t.contains("\"loadBalancingConfig\"") || t.contains("\"" + ServiceConfigReader.POLICY + "\""));
    }

    static GrpcImplementation implementation(String option) {
        if (option == null) {
            return GrpcImplementation.JAVA;
        }
        try {
            return GrpcImplementation.parse("--grpc-implementation", option);
        } catch (InvalidConfigException e) {
            throw new InputException(e.getMessage());
        }
    }

    /** A service config's findings, as a file's findings. */
    static CheckInputs.Loaded serviceConfig(String text, String source, GrpcImplementation impl) {
        return new CheckInputs.Loaded(
                List.of(), GrpcChecks.forServiceConfig(ServiceConfigReader.read(text, source, impl), source));
    }

    /** Envoy clusters read by a gRPC client: gRPC's findings in place of Envoy's. */
    static CheckInputs.Loaded asGrpcClient(CheckInputs.Loaded envoy, GrpcImplementation impl) {
        List<Finding> findings = new ArrayList<>(envoy.fileFindings());
        findings.addAll(GrpcChecks.forClusters(envoy.targets(), impl));
        return new CheckInputs.Loaded(List.of(), findings);
    }
}
