package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code outlier-lab check} on a gateway configuration: text, JSON, SARIF, exit codes 0 / 1 / 2. */
class GatewayCheckCommandTest {
    private static final String EXAMPLE = "../docs/examples/gateway-check.yaml";

    @TempDir
    Path dir;

    @Test
    void textNamesEndpointsAndExitsZeroOnWarningsUnlessFailOnWarning() {
        CliRunner.Outcome o = CliRunner.run("check", EXAMPLE, "--rps", "6");
        assertThat(o.exit()).isZero();
        assertThat(o.err()).isEmpty();
        assertThat(o.out())
                .startsWith("outlier-lab check " + EXAMPLE + ": 1 gateway configuration (6 rps)\n")
                .contains("gateway  " + EXAMPLE + ":6  2 endpoints in the file")
                .contains("warning gateway-statistical-rule-cannot-fire (line 9)")
                .contains("warning gateway-hair-trigger (line 10)")
                .contains("note    gateway-no-fallbacks (line 14)")
                .endsWith("0 errors, 2 warnings, 1 note\n");
        assertThat(CliRunner.run("check", EXAMPLE, "--fail-on", "warning").exit())
                .isEqualTo(1);
        assertThat(CliRunner.run("check", EXAMPLE, "--hosts", "6", "--rps", "600")
                        .out())
                .startsWith("outlier-lab check " + EXAMPLE + ": 1 gateway configuration (6 endpoints, 600 rps)\n")
                .doesNotContain("gateway-statistical-rule-cannot-fire");
    }

    @Test
    void jsonCarriesTheSettingsAndTheNumbers() {
        CliRunner.Outcome o = CliRunner.run("check", EXAMPLE, "--hosts", "4", "--rps", "600", "--format", "json");
        JsonNode json = o.json();
        JsonNode gateway = json.get("clusters").get(0);
        assertThat(gateway.get("profile").asText()).isEqualTo("gateway");
        assertThat(gateway.get("gateway").get("stdev_factor").asDouble()).isEqualTo(2.0);
        assertThat(gateway.get("gateway").get("routing").get("strategy").asText())
                .isEqualTo("round_robin");
        JsonNode first = json.get("findings").get(0);
        assertThat(first.get("id").asText()).isEqualTo("gateway-statistical-rule-cannot-fire");
        assertThat(first.get("numbers").get("endpoints").asLong()).isEqualTo(4);
        assertThat(first.get("numbers").get("largest_factor_that_can_eject").asDouble())
                .isEqualTo(1.7);
        assertThat(json.get("findings")
                        .get(1)
                        .get("numbers")
                        .get("seconds_at_rps_per_endpoint")
                        .asDouble())
                .isEqualTo(0.67);
    }

    @Test
    void sarifPointsAtTheLine() {
        CliRunner.Outcome o = CliRunner.run("check", EXAMPLE, "--format", "sarif", "--fail-on", "warning");
        assertThat(o.exit()).isEqualTo(1);
        JsonNode result = o.json().get("runs").get(0).get("results").get(0);
        assertThat(result.get("ruleId").asText()).isEqualTo("gateway-statistical-rule-cannot-fire");
        assertThat(result.get("level").asText()).isEqualTo("warning");
        assertThat(result.get("locations")
                        .get(0)
                        .get("physicalLocation")
                        .get("region")
                        .get("startLine")
                        .asInt())
                .isEqualTo(9);
    }

    @Test
    void badInputIsOneMessageAndExitTwo() throws IOException {
        Path bad = dir.resolve("gw.yaml");
        Files.writeString(bad, "gateway:\n  min_requests: 0\n");
        CliRunner.Outcome o = CliRunner.run("check", bad.toString());
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.out()).isEmpty();
        assertThat(o.err())
                .contains(bad + ":2: gateway.min_requests: 0 is not allowed; expected")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
        Path envoyish = dir.resolve("mixed.yaml");
        Files.writeString(envoyish, "gateway:\n  mode: prod\noutlier_detection:\n  consecutive_5xx: 3\n");
        CliRunner.Outcome mixed = CliRunner.run("check", envoyish.toString());
        assertThat(mixed.exit()).isEqualTo(2);
        assertThat(mixed.err()).contains(envoyish + ":4: outlier_detection is Envoy's (profile: envoy) setting");
    }
}
