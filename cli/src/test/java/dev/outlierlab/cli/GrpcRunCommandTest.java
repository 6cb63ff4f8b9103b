package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GrpcRunCommandTest {
    private static final String EXAMPLES = "../docs/examples/";

    @Test
    void theDefaultScenarioUnderGrpcEjectsHostZeroThreeTimes() {
        CliRunner.Outcome o = CliRunner.run("run", "--set", "profile=grpc", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.events("eject"))
                .containsExactly(
                        "40000000000 host-0 SUCCESS_RATE",
                        "90000000000 host-0 SUCCESS_RATE",
                        "170000000000 host-0 SUCCESS_RATE");
        assertThat(o.events("uneject"))
                .containsExactly("80000000000 host-0", "160000000000 host-0", "270000000000 host-0");
        assertThat(o.json().get("summary").get("failed").asLong()).isEqualTo(990);
        assertThat(o.json().get("profile").asText()).isEqualTo("grpc");
        assertThat(o.json().get("grpc").get("origin").asText())
                .isEqualTo("outlier_detection, as gRPC's xDS client maps it");
    }

    @Test
    void envoyAndGrpcSideBySideInOneTable() {
        CliRunner.Outcome o = CliRunner.run("run", "--profile", "envoy,grpc");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains("  failed            6,930     990\n")
                .contains("  ejected at        -         host-0@40s host-0@90s host-0@170s\n")
                .contains("  cap refused       21        0\n");
    }

    @Test
    void theServiceConfigAndTheEnvoyClusterGiveTheSameRunAsTheMapping() {
        CliRunner.Outcome sc =
                CliRunner.run("run", "--service-config", EXAMPLES + "grpc-service-config.json", "--format", "json");
        assertThat(sc.exit()).as(sc.err()).isZero();
        assertThat(sc.events("eject")).hasSize(3);
        CliRunner.Outcome envoy =
                CliRunner.run("run", "--envoy", EXAMPLES + "search-cluster.yaml", "--profile", "grpc");
        assertThat(envoy.exit()).as(envoy.err()).isZero();
        assertThat(envoy.out())
                .contains("from          Envoy cluster search, as gRPC's xDS client maps it")
                .contains("note          outlier_detection.consecutive_5xx is ignored by gRPC")
                .contains("note          health_checks are not run");
    }

    @Test
    void aBadServiceConfigIsOneMessageAndExitTwo(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("sc.json");
        Files.writeString(
                bad,
                "{\"loadBalancingConfig\": [{\"outlier_detection_experimental\": {\n"
                        + "  \"successRateEjection\": {\"enforcementPercentage\": 150},\n"
                        + "  \"childPolicy\": [{\"round_robin\": {}}]}}]}\n");
        CliRunner.run("run", "--service-config", bad.toString())
                .assertRejected(
                        "sc.json:2: loadBalancingConfig.outlier_detection_experimental.successRateEjection.enforcementPercentage:"
                                + " 150 is not allowed; gRPC allows a whole number from 0 to 100");
        Files.writeString(bad, "{\"loadBalancingConfig\": [{\"outlier_detection_experimental\": {}}]}");
        CliRunner.run("run", "--service-config", bad.toString()).assertRejected("childPolicy: missing");
        Files.writeString(
                bad,
                "{\"loadBalancingConfig\": [{\"outlier_detection_experimental\": {\"intervall\": \"1s\","
                        + " \"childPolicy\": [{\"round_robin\": {}}]}}]}");
        CliRunner.run("run", "--service-config", bad.toString())
                .assertRejected(
                        "unknown key 'loadBalancingConfig.outlier_detection_experimental.intervall' (did you mean 'interval'?)");
        CliRunner.run("run", "--profile", "envoy,linkerd")
                .assertRejected("--profile: \"envoy,linkerd\" is not allowed");
        CliRunner.run("run", "--grpc-implementation", "rust")
                .assertRejected("--grpc-implementation: \"rust\" is not allowed; expected one of java, go, core");
    }

    @Test
    void gRPCsOptionsNeedAProfileThatTakesThemAndEnvoyAloneNeedsNoProfile() {
        CliRunner.run("run", "--profile", "envoy,gateway", "--grpc-implementation", "go")
                .assertRejected("--service-config and --grpc-implementation are gRPC's; add grpc to --profile");
        CliRunner.run("run", "--profile", "envoy")
                .assertRejected("--profile envoy: a profile: envoy scenario runs under envoy without --profile;"
                        + " alone, --profile takes grpc or gateway; to compare, join several by commas, such as"
                        + " envoy,grpc");
        CliRunner.Outcome both = CliRunner.run("run", "--profile", "envoy,grpc", "--grpc-implementation", "core");
        assertThat(both.exit()).as(both.err()).isZero();
        assertThat(both.out()).contains("under envoy, grpc (the same traffic and faults)");
    }

    @Test
    void theDoubleEjectionExampleEjectsHostZeroTwiceInOneSweep() {
        CliRunner.Outcome o = CliRunner.run("run", EXAMPLES + "grpc-two-algorithms.yaml", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.events("eject"))
                .startsWith("40000000000 host-0 SUCCESS_RATE", "40000000000 host-0 FAILURE_PERCENTAGE");
        // ejected twice, so its multiplier is 2: out 60 s, back at the first sweep after 100 s
        assertThat(o.events("uneject")).contains("110000000000 host-0");
        CliRunner.Outcome core = CliRunner.run(
                "run", EXAMPLES + "grpc-two-algorithms.yaml", "--grpc-implementation", "core", "--format", "json");
        assertThat(core.events("eject"))
                .startsWith("40000000000 host-0 SUCCESS_RATE", "50000000000 host-1 SUCCESS_RATE");
        assertThat(core.events("uneject")).contains("80000000000 host-0");
    }
}
