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

/** {@code outlier-lab check}: formats, exit codes 0 / 1 / 2, and bad input without a stack trace. */
class CheckCommandTest {
    /** The config module's corpus of realistic Envoy and Istio files (tests run in the cli module's folder). */
    static String corpus(String name) {
        return Path.of("..", "config", "src", "test", "resources", name).toString();
    }

    @TempDir
    Path dir;

    @Test
    void theSeedsTunedClusterPasses() {
        CliRunner.Outcome o = CliRunner.run("check", corpus("envoy/static-cluster.yaml"), "--rps", "600");
        assertThat(o.exit()).isZero();
        assertThat(o.out()).contains("bookstore-search").contains("0 errors, 0 warnings, 1 note");
        assertThat(o.err()).isEmpty();
    }

    @Test
    void envoysDefaultsAloneOnSixHostsAreANote() {
        // outlier_detection: {} on 6 hosts: the default cap 10 admits none, but the file configures nothing to eject
        CliRunner.Outcome o = CliRunner.run("check", corpus("envoy/bootstrap.yaml"));
        assertThat(o.exit()).isZero();
        assertThat(o.out())
                .contains("note    cap-admits-no-host")
                .contains("max_ejection_percent: 17")
                .contains("0 errors, 0 warnings, 3 notes");
        assertThat(CliRunner.run("check", corpus("envoy/bootstrap.yaml"), "--fail-on", "warning")
                        .exit())
                .isZero();
    }

    @Test
    void theDefaultCapOnAKnownSmallClusterIsAWarningThatFailsABuildOnWarnings() {
        String search = "../docs/examples/search-cluster.yaml";
        CliRunner.Outcome o = CliRunner.run("check", search);
        assertThat(o.exit()).isZero();
        assertThat(o.out()).contains("warning cap-admits-no-host").contains("0 errors, 2 warnings");
        assertThat(CliRunner.run("check", search, "--fail-on", "warning").exit())
                .isEqualTo(1);
    }

    @Test
    void failOnWarning() {
        String file = corpus("envoy/health-checked-cluster.yaml");
        assertThat(CliRunner.run("check", file).exit()).isZero();
        CliRunner.Outcome strict = CliRunner.run("check", file, "--fail-on", "warning");
        assertThat(strict.exit()).isEqualTo(1);
        assertThat(strict.out()).contains("health-check-returns-ejected", "gateway-detect-only");
    }

    @Test
    void sarifForCi() {
        CliRunner.Outcome o = CliRunner.run("check", corpus("envoy/bootstrap.yaml"), "--format", "sarif");
        assertThat(o.exit()).isZero();
        JsonNode sarif = o.json();
        assertThat(sarif.get("version").asText()).isEqualTo("2.1.0");
        JsonNode result = sarif.get("runs").get(0).get("results").get(0);
        assertThat(result.get("ruleId").asText()).isEqualTo("cap-admits-no-host");
        JsonNode location = result.get("locations").get(0).get("physicalLocation");
        assertThat(location.get("artifactLocation").get("uri").asText())
                .isEqualTo("../config/src/test/resources/envoy/bootstrap.yaml");
        assertThat(location.get("region").get("startLine").asInt()).isEqualTo(43);
    }

    @Test
    void jsonForIstioWithHostsAndPort() {
        CliRunner.Outcome o = CliRunner.run(
                "check", corpus("istio/multi-port-subsets.yaml"), "--hosts", "6", "--port", "9090", "--format", "json");
        JsonNode json = o.json();
        assertThat(json.get("clusters")).hasSize(3);
        assertThat(json.get("clusters").get(0).get("name").asText()).isEqualTo("search:9090");
        assertThat(json.get("clusters")
                        .get(0)
                        .get("outlier_detection")
                        .get("max_ejection_percent")
                        .asInt())
                .isEqualTo(34);
        // the canary subset keeps its own outlierDetection (default cap) on port 9090 too: at 6 hosts Envoy's
        // default cap admits none, a warning (the cap is not one the file chose), so the run exits 0
        // (istiod's locality failover adds a note per rule with outlierDetection: find the cap finding by its id)
        List<JsonNode> canaryCaps = new ArrayList<>();
        json.get("findings").forEach(f -> {
            if (f.get("cluster").asText().equals("search/canary:9090")
                    && f.get("id").asText().equals("cap-admits-no-host")) {
                canaryCaps.add(f);
            }
        });
        assertThat(canaryCaps).hasSize(1);
        assertThat(canaryCaps.get(0).get("severity").asText()).isEqualTo("warning");
        assertThat(o.exit()).isZero();
    }

    @Test
    void invalidValuesAreFindingsNotBadInput() {
        CliRunner.Outcome o = CliRunner.run("check", corpus("envoy/bad/rejected-values.yaml"));
        assertThat(o.exit()).isEqualTo(1);
        assertThat(o.out()).contains("error   invalid-config (line 12)");
    }

    @Test
    void badInputExitsTwoWithOneMessage() throws IOException {
        CliRunner.run("check", corpus("envoy/bad/malformed.yaml"))
                .assertRejected("malformed.yaml:4:", "malformed YAML");
        CliRunner.run("check", corpus("envoy/bad/unknown-field.yaml"))
                .assertRejected(
                        "unknown-field.yaml:6: unknown field 'outlier_detection.max_ejection_percentage'",
                        "did you mean max_ejection_percent?");
        CliRunner.run("check", corpus("envoy/bad/wrong-type.yaml"))
                .assertRejected("wrong-type.yaml:5: outlier_detection.consecutive_5xx: \"five\" is the wrong type");
        CliRunner.run("check", corpus("envoy/bad/unknown-type.yaml"))
                .assertRejected(
                        "@type type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOption is not a type the reader knows");
        CliRunner.run("check", corpus("envoy/bad/empty.yaml")).assertRejected("empty.yaml: the file is empty");
        CliRunner.run("check", corpus("istio/bad/unknown-field.yaml"))
                .assertRejected("unknown field 'spec.trafficPolicy.outlierDetection.maxEjectionPercentage'");
        CliRunner.run("check", dir.resolve("missing.yaml").toString()).assertRejected("missing.yaml: no such file");
        CliRunner.run("check", corpus("envoy/static-cluster.yaml"), "--format", "xml")
                .assertRejected("--format");
        Path zero = dir.resolve("c.yaml");
        Files.writeString(zero, "name: a\noutlier_detection: {}\n");
        CliRunner.run("check", zero.toString(), "--hosts", "0").assertRejected("--hosts: 0 is not allowed");
    }
}
