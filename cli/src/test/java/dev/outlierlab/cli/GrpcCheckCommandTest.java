package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrpcCheckCommandTest {
    private static List<String> ids(CliRunner.Outcome o) {
        List<String> ids = new ArrayList<>();
        for (JsonNode f : o.json().get("findings")) {
            ids.add(f.get("id").asText());
        }
        return ids;
    }

    @Test
    void anEnvoyClusterReadByAGrpcClientNamesWhatGrpcIgnoresAndTurnsOff(@TempDir Path dir) throws IOException {
        Path cluster = dir.resolve("cluster.yaml");
        Files.writeString(cluster, """
                name: payments
                type: STATIC
                load_assignment:
                  cluster_name: payments
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
                outlier_detection:
                  consecutive_gateway_failure: 3
                  max_ejection_time_jitter: 1s
                  always_eject_one_host: true
                  enforcing_success_rate: 0
                  enforcing_failure_percentage: 100
                  failure_percentage_threshold: 100
                  max_ejection_percent: 100
                """);
        CliRunner.Outcome o = CliRunner.run("check", "--profile", "grpc", cluster.toString(), "--format", "json");
        assertThat(o.exit()).as(o.err()).isEqualTo(1);
        assertThat(ids(o))
                .containsExactly(
                        "grpc-ignored-field",
                        "grpc-ignored-field",
                        "grpc-ignored-field",
                        "grpc-ignored-field",
                        "grpc-success-rate-disabled",
                        "grpc-nothing-ejects",
                        "grpc-failure-threshold-100");
        assertThat(o.json().get("findings").get(0).get("message").asText())
                .isEqualTo("payments (as a gRPC client reads"
                        + " it): consecutive_gateway_failure is set, and a gRPC client ignores it (gRFC A50 maps only success"
                        + " rate, failure percentage, the interval, the ejection times and the cap)");
    }

    @Test
    void aServiceConfigIsCheckedAsGrpcsWithTheImplementationsRules(@TempDir Path dir) throws IOException {
        Path sc = dir.resolve("sc.json");
        Files.writeString(
                sc,
                "{\"loadBalancingConfig\": [{\"outlier_detection_experimental\": {\"maxEjectionPercent\": 100,"
                        + " \"successRateEjection\": {}, \"failurePercentageEjection\": {\"enforcementPercentage\": 1},"
                        + " \"childPolicy\": [{\"round_robin\": {}}]}}]}");
        CliRunner.Outcome java = CliRunner.run("check", sc.toString(), "--format", "json");
        assertThat(java.exit()).as(java.err()).isZero();
        assertThat(ids(java))
                .containsExactly("grpc-key-ignored", "grpc-implementations-differ", "grpc-implementations-differ");
        CliRunner.Outcome go = CliRunner.run("check", sc.toString(), "--grpc-implementation", "go", "--format", "json");
        assertThat(ids(go))
                .containsExactly("grpc-cap-all-no-panic", "grpc-implementations-differ", "grpc-implementations-differ");
        Files.writeString(
                sc,
                "{\"loadBalancingConfig\": [{\"outlier_detection_experimental\": {\"successRateEjection\":"
                        + " {\"stdevFactor\": \"high\"}, \"childPolicy\": [{\"round_robin\": {}}]}}]}");
        CliRunner.run("check", sc.toString())
                .assertRejected("successRateEjection.stdevFactor: \"high\" is not allowed;"
                        + " gRPC allows a whole number of at least 0");
    }
}
