package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * gRPC's success rate and failure percentage cannot run on fewer endpoints than their {@code minimumHosts} (gRFC A50):
 * tune's labels and run's settings line say so with the reason, as Envoy's labels do ({@code sr=off (4 hosts < min
 * 5)}), in text and JSON.
 */
class GrpcOffDetectorLabelsTest {
    private static final String SUITE = "../docs/examples/tune-suite.yaml";

    @Test
    void tunesGrpcLabelOnFourHostsSaysWhichDetectorIsOffAndWhy(@TempDir Path dir) throws Exception {
        // success rate needs 5 hosts, failure percentage 3: on 4 hosts only failure percentage can run
        Path config = dir.resolve("service-config.json");
        Files.writeString(config, """
                {"loadBalancingConfig": [{"outlier_detection_experimental": {
                  "interval": "10s", "baseEjectionTime": "30s", "maxEjectionPercentage": 25,
                  "successRateEjection": {"stdevFactor": 1900, "enforcementPercentage": 100, "minimumHosts": 5,
                                          "requestVolume": 100},
                  "failurePercentageEjection": {"threshold": 30, "enforcementPercentage": 100, "minimumHosts": 3,
                                                "requestVolume": 50},
                  "childPolicy": [{"round_robin": {}}]}}]}
                """);
        CliRunner.Outcome json = CliRunner.run(
                "tune",
                "--target",
                "grpc",
                "--from",
                config.toString(),
                "--hosts",
                "4",
                "--rps",
                "300",
                "--suite",
                SUITE,
                "--seeds",
                "2",
                "--format",
                "json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.json().get("current").get("label").asText())
                .isEqualTo("successRateEjection=off (4 hosts < minimumHosts 5) failurePercentageEjection=30/50"
                        + " interval=10s baseEjectionTime=30s maxEjectionPercentage=25");
        // its own fields still say what the file says
        assertThat(json.json()
                        .get("current")
                        .get("setting")
                        .get("successRateEjection")
                        .get("stdevFactor")
                        .asInt())
                .isEqualTo(1900);
        CliRunner.Outcome text = CliRunner.run(
                "tune",
                "--target",
                "grpc",
                "--from",
                config.toString(),
                "--hosts",
                "4",
                "--rps",
                "300",
                "--suite",
                SUITE,
                "--seeds",
                "2");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("): successRateEjection=off (4 hosts < minimumHosts 5) failurePercentageEjection=30/50 ")
                .doesNotContain("successRateEjection=1900/100");
    }

    @Test
    void tunesGrpcDefaultsOnFourAndSixHosts() {
        CliRunner.Outcome four = CliRunner.run(
                "tune",
                "--target",
                "grpc",
                "--hosts",
                "4",
                "--rps",
                "300",
                "--suite",
                SUITE,
                "--seeds",
                "2",
                "--format",
                "json");
        assertThat(four.exit()).as(four.err()).isZero();
        assertThat(four.json().get("current").get("label").asText())
                .startsWith("successRateEjection=off (4 hosts < minimumHosts 5) failurePercentageEjection=off "
                        + "interval=10s");
        CliRunner.Outcome six = CliRunner.run(
                "tune",
                "--target",
                "grpc",
                "--hosts",
                "6",
                "--rps",
                "300",
                "--suite",
                SUITE,
                "--seeds",
                "2",
                "--format",
                "json");
        assertThat(six.exit()).as(six.err()).isZero();
        assertThat(six.json().get("current").get("label").asText())
                .startsWith("successRateEjection=1900/100 failurePercentageEjection=off interval=10s");
    }

    @Test
    void runsGrpcSettingsSayWhichDetectorCannotRunOnFourEndpoints() {
        CliRunner.Outcome text = CliRunner.run("run", "--profile", "grpc", "--hosts", "4", "--events", "0");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("; success_rate_ejection off (4 hosts < minimum_hosts 5): {stdev_factor 1900,"
                        + " enforcement_percentage 100, minimum_hosts 5, request_volume 100};"
                        + " failure_percentage_ejection off (4 hosts < minimum_hosts 5): {threshold 85,");
        CliRunner.Outcome json =
                CliRunner.run("run", "--profile", "grpc", "--hosts", "4", "--events", "0", "--format", "json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.json()
                        .get("grpc")
                        .get("off")
                        .get("success_rate_ejection")
                        .asText())
                .isEqualTo("(4 hosts < minimum_hosts 5)");
        assertThat(json.json()
                        .get("grpc")
                        .get("off")
                        .get("failure_percentage_ejection")
                        .asText())
                .isEqualTo("(4 hosts < minimum_hosts 5)");
        // the block itself still reads back as the scenario's grpc: block
        assertThat(json.json()
                        .get("grpc")
                        .get("success_rate_ejection")
                        .get("minimum_hosts")
                        .asInt())
                .isEqualTo(5);
        CliRunner.Outcome side = CliRunner.run("run", "--profile", "envoy,grpc", "--hosts", "4");
        assertThat(side.exit()).as(side.err()).isZero();
        assertThat(side.out()).contains("success_rate_ejection off (4 hosts < minimum_hosts 5): {stdev_factor 1900,");
    }

    @Test
    void runsGrpcSettingsOnSixEndpointsHaveNoOffReason() {
        CliRunner.Outcome text = CliRunner.run("run", "--profile", "grpc", "--hosts", "6", "--events", "0");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("; success_rate_ejection {stdev_factor 1900,")
                .doesNotContain("minimum_hosts 5)");
        CliRunner.Outcome json =
                CliRunner.run("run", "--profile", "grpc", "--hosts", "6", "--events", "0", "--format", "json");
        assertThat(json.json().get("grpc").has("off")).isFalse();
    }
}
