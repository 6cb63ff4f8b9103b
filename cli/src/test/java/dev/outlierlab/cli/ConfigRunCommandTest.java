package dev.outlierlab.cli;

import static dev.outlierlab.cli.CheckCommandTest.corpus;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --envoy}, {@code run --istio} and {@code export}. */
class ConfigRunCommandTest {
    @TempDir
    Path dir;

    @Test
    void runEnvoyClusterGivesTheSeedsTunedResult() {
        CliRunner.Outcome fromEnvoy =
                CliRunner.run("run", "--envoy", corpus("envoy/static-cluster.yaml"), "--format", "json");
        assertThat(fromEnvoy.exit()).isZero();
        JsonNode scenario = fromEnvoy.json().get("scenario");
        assertThat(scenario.get("cluster").get("hosts").get(0).asText()).isEqualTo("10.0.1.10:8080");
        assertThat(scenario.get("faults").get(0).get("hosts").get(0).asText()).isEqualTo("10.0.1.10:8080");
        CliRunner.Outcome fromSettings = CliRunner.run(
                "run",
                "--set",
                "outlier_detection.max_ejection_percent=34",
                "--set",
                "outlier_detection.max_ejection_time=300s",
                "--set",
                "outlier_detection.successful_active_health_check_uneject_host=false",
                "--format",
                "json");
        assertThat(fromEnvoy.json().get("summary"))
                .isEqualTo(fromSettings.json().get("summary"));
        assertThat(fromEnvoy.events("eject"))
                .extracting(e -> e.split(" ")[0])
                .containsExactly("40000000000", "80000000000", "150000000000");
    }

    @Test
    void runEnvoyNeedsAClusterChoiceWhenThereAreSeveral() {
        CliRunner.Outcome o = CliRunner.run("run", "--envoy", corpus("envoy/clusters-list.yaml"));
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("choose one with --cluster NAME: payments, ledger");
        CliRunner.Outcome ledger = CliRunner.run(
                "run", "--envoy", corpus("envoy/clusters-list.yaml"), "--cluster", "ledger", "--format", "json");
        assertThat(ledger.exit()).isZero();
        assertThat(ledger.json().get("scenario").get("cluster").get("hosts")).hasSize(3);
    }

    @Test
    void edsClusterNeedsHosts() {
        CliRunner.Outcome o = CliRunner.run("run", "--envoy", corpus("envoy/eds-cluster.yaml"));
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("give it with --hosts N");
        assertThat(CliRunner.run("run", "--envoy", corpus("envoy/eds-cluster.yaml"), "--hosts", "6")
                        .exit())
                .isZero();
    }

    @Test
    void runIstioRule() {
        CliRunner.Outcome o =
                CliRunner.run("run", "--istio", corpus("istio/checkout-full.yaml"), "--hosts", "6", "--format", "json");
        assertThat(o.exit()).isZero();
        JsonNode s = o.json().get("scenario");
        assertThat(s.get("cluster").get("hosts").asInt()).isEqualTo(6);
        assertThat(s.get("cluster").get("panic_threshold").asInt()).isEqualTo(30);
        assertThat(s.get("outlier_detection").get("enforcing_success_rate").asInt())
                .isZero();
        assertThat(s.get("outlier_detection").get("base_ejection_time").asText())
                .isEqualTo("90s");
        CliRunner.Outcome noHosts = CliRunner.run("run", "--istio", corpus("istio/checkout-full.yaml"));
        assertThat(noHosts.exit()).isEqualTo(2);
        assertThat(noHosts.err()).contains("--istio needs --hosts N");
        CliRunner.Outcome port = CliRunner.run(
                "run",
                "--istio",
                corpus("istio/multi-port-subsets.yaml"),
                "--hosts",
                "6",
                "--port",
                "9090",
                "--cluster",
                "search",
                "--format",
                "json");
        assertThat(port.json()
                        .get("scenario")
                        .get("outlier_detection")
                        .get("max_ejection_percent")
                        .asInt())
                .isEqualTo(34);
    }

    @Test
    void exportedClusterRunsLikeTheScenario() throws IOException {
        CliRunner.Outcome export = CliRunner.run(
                "export", "--set", "outlier_detection.max_ejection_percent=34", "--set", "cluster.panic_threshold=40");
        assertThat(export.exit()).isZero();
        Path file = dir.resolve("cluster.yaml");
        Files.writeString(file, export.out());
        CliRunner.Outcome direct = CliRunner.run(
                "run",
                "--set",
                "outlier_detection.max_ejection_percent=34",
                "--set",
                "cluster.panic_threshold=40",
                "--format",
                "json");
        CliRunner.Outcome viaEnvoy = CliRunner.run("run", "--envoy", file.toString(), "--format", "json");
        assertThat(viaEnvoy.json()).isEqualTo(direct.json());
        assertThat(CliRunner.run("check", file.toString()).exit()).isZero();
    }

    @Test
    void clusterOptionsWithoutAFileAreRejected() {
        CliRunner.Outcome o = CliRunner.run("run", "--port", "80");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("add --envoy FILE or --istio FILE");
        // --hosts alone is the scenario's cluster.hosts (SharedInputsTest)
        assertThat(CliRunner.run("run", "--hosts", "6").exit()).isZero();
    }
}
