package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.check.CheckRule;
import dev.outlierlab.check.Rule;
import dev.outlierlab.web.LabServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The toy profile (package {@code dev.outlierlab.cli.toy} of the test sources and one line in the test resources'
 * {@code META-INF/services/dev.outlierlab.engine.profile.Profile}) runs in every front end through the profile
 * registry, with no other edit: the same scenario gives the same failed requests in {@code run}, {@code sweep} and
 * the browser lab's API, and {@code check --profile toy} gives its findings.
 */
class ToyProfileSeamTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] EAGER = {"--set", "profile=toy", "--set", "toy.failures=1"};

    private static long failed(String... args) throws Exception {
        CliRunner.Outcome o = CliRunner.run(args);
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode root = JSON.readTree(o.out());
        assertThat(root.get("profile").asText()).isEqualTo("toy");
        return root.get("summary").get("failed").asLong();
    }

    @Test
    void runsInRun_andItsDetectorDecides() throws Exception {
        long eager = failed("run", "--set", "profile=toy", "--set", "toy.failures=1", "--format", "json");
        long never = failed("run", "--set", "profile=toy", "--set", "toy.failures=1000000", "--format", "json");
        // the default scenario's bad host fails a third of its requests: out after one failure, it is sent far fewer
        assertThat(eager).isPositive().isLessThan(never / 2);
        CliRunner.Outcome text = CliRunner.run("run", "--set", "profile=toy", "--set", "toy.failures=1");
        assertThat(text.out()).startsWith("toy: ").contains(eager + " failed");
    }

    @Test
    void runsInSweep_withTheSameFiguresAsRun() throws Exception {
        long eager = failed("run", "--set", "profile=toy", "--set", "toy.failures=1", "--format", "json");
        CliRunner.Outcome o =
                CliRunner.run("sweep", "--set", "profile=toy", "--vary", "toy.failures=1,1000000", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode runs = JSON.readTree(o.out()).get("runs");
        assertThat(runs).hasSize(2);
        assertThat(runs.get(0).get("summary").get("failed").asLong()).isEqualTo(eager);
        assertThat(runs.get(0).get("summary").get("ejections_detected").asLong())
                .isPositive();
        assertThat(runs.get(1).get("summary").get("ejections_detected").asLong())
                .isZero();
    }

    @Test
    void runsInCheck_asItsClientReadsTheCluster() throws Exception {
        CliRunner.Outcome o =
                CliRunner.run("check", "--profile", "toy", "--format", "json", "../docs/examples/search-cluster.yaml");
        assertThat(o.out()).as(o.err()).contains("the toy profile ejects after 5 failures in a row");
        // its rule is its own, listed in SARIF after the lab's, its findings pointing at it
        JsonNode sarif = JSON.readTree(
                CliRunner.run("check", "--profile", "toy", "--format", "sarif", "../docs/examples/search-cluster.yaml")
                        .out());
        JsonNode rules = sarif.at("/runs/0/tool/driver/rules");
        assertThat(rules).hasSize(CheckRule.lab().size() + 1);
        assertThat(rules.get(CheckRule.lab().size()).get("id").asText()).isEqualTo("toy-reads-consecutive-only");
        assertThat(rules.get(0).get("id").asText()).isEqualTo(Rule.values()[0].id());
        JsonNode toyResult = null;
        for (JsonNode r : sarif.at("/runs/0/results")) {
            if (r.get("ruleId").asText().equals("toy-reads-consecutive-only")) {
                toyResult = r;
            }
        }
        assertThat(toyResult).as(sarif.toString()).isNotNull();
        assertThat(toyResult.get("ruleIndex").asInt()).isEqualTo(CheckRule.lab().size());
        assertThat(toyResult.at("/message/text").asText()).contains("ejects after 5 failures in a row");
        CliRunner.run("check", "--profile", "nginx", "../docs/examples/search-cluster.yaml")
                .assertRejected("--profile: \"nginx\" is not allowed; expected grpc or toy");
    }

    @Test
    void runsInTheBrowserLabsApi_withTheSameFiguresAsRun() throws Exception {
        long eager = failed("run", EAGER[0], EAGER[1], EAGER[2], EAGER[3], "--format", "json");
        try (LabServer server = LabServer.start(0)) {
            HttpClient client = HttpClient.newHttpClient();
            String base = "http://127.0.0.1:" + server.port();
            HttpResponse<String> run = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/run"))
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"profile\": \"toy\", \"toy\": {\"failures\": 1}}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
            JsonNode tree = JSON.readTree(run.body());
            assertThat(tree.get("profile").asText()).isEqualTo("toy");
            assertThat(tree.get("summary").get("failed").asLong()).isEqualTo(eager);
            // the comparison's columns come from the registry: the toy's defaults over the same traffic and faults
            HttpResponse<String> compare = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/compare"))
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(compare.statusCode()).as(compare.body()).isEqualTo(200);
            JsonNode columns = JSON.readTree(compare.body()).get("columns");
            assertThat(columns.findValuesAsText("profile"))
                    .containsExactly("envoy", "grpc (grpc-java)", "gateway", "nginx", "haproxy", "caddy", "toy");
            long byDefault = failed("run", "--set", "profile=toy", "--format", "json");
            assertThat(columns.get(6).get("failed").asLong()).isEqualTo(byDefault);
            assertThat(columns.get(6).get("requests").asLong())
                    .isEqualTo(columns.get(0).get("requests").asLong());
            assertThat(JSON.readTree(compare.body()).get("text").asText()).contains("toy");
            HttpResponse<String> scenario = client.send(
                    HttpRequest.newBuilder(URI.create(base + "/api/scenario"))
                            .POST(HttpRequest.BodyPublishers.ofString("profile: toy\ntoy:\n  failures: 3\n"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(scenario.statusCode()).as(scenario.body()).isEqualTo(200);
            assertThat(JSON.readTree(scenario.body())
                            .get("scenario")
                            .get("toy")
                            .get("failures")
                            .asInt())
                    .isEqualTo(3);
        }
    }

    @Test
    void whatItDoesNotTakeIsRefused_withTheProfilesThatDo() {
        CliRunner.run("run", "--set", "profile=toy", "--stats", "text")
                .assertRejected("--stats (envoy): not taken by this scenario's profile, toy");
        CliRunner.run("run", "--set", "profile=toy", "--set", "toy.failures=0")
                .assertRejected("toy.failures: \"0\" is not allowed; expected a whole number from 1 to 1000000");
        CliRunner.run("run", "--set", "profile=squid")
                .assertRejected(
                        "profile: \"squid\" is not allowed; expected envoy, grpc, gateway, nginx, haproxy, caddy or toy");
        CliRunner.run("run", "--profile", "envoy,toy").assertRejected("expected envoy, grpc or gateway");
        CliRunner.run("tune", "--target", "toys")
                .assertRejected("--target: 'toys' is not a target; expected envoy, istio, envoy-gateway, kuma, grpc, "
                        + "gateway, nginx, haproxy, caddy or toy");
    }

    /**
     * {@code tune --target toy} searches the toy's two numbers on the toy's own simulation and writes its block; the
     * figures it scores a setting with are those {@code run} gives for the same scenario and seed.
     */
    @Test
    void runsInTune_withTheSameFiguresAsRun(@TempDir Path dir) throws Exception {
        CliRunner.Outcome o = CliRunner.run(
                "tune", "--target", "toy", "--hosts", "6", "--rps", "300", "--seeds", "2", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode root = JSON.readTree(o.out());
        assertThat(root.get("request").get("target").asText()).isEqualTo("toy");
        JsonNode current = root.get("current");
        JsonNode rec = root.get("recommended");
        assertThat(current.get("setting").get("consecutive_5xx").asLong()).isEqualTo(5);
        long failures = rec.get("setting").get("consecutive_5xx").asLong();
        assertThat(rec.get("file").asText())
                .startsWith("profile: toy\ntoy:\n  failures: " + failures + "\n  ejection_seconds: ");
        // the toy has no cap: at 5 in a row a shared outage takes every host out (17 false ejections a run), at 10
        // it takes none, and still catches the hosts that fail every request
        assertThat(scenario(current, "shared-outage").get("false_ejections").asDouble())
                .isEqualTo(17.0);
        assertThat(failures).isEqualTo(10);
        assertThat(scenario(rec, "shared-outage").get("false_ejections").asDouble())
                .isZero();
        assertThat(scenario(rec, "one-host-dead-503").get("removed_percent").asDouble())
                .isGreaterThan(99);
        assertThat(rec.get("benefit_percent").asDouble()).isEqualTo(41.411);
        JsonNode partial = scenario(rec, "one-host-partial");
        Path lab = dir.resolve("lab.yaml");
        Files.writeString(lab, rec.get("lab_scenario").toString());
        CliRunner.Outcome run = CliRunner.run("run", lab.toString(), "--format", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode summary = JSON.readTree(run.out()).get("summary");
        assertThat(summary.get("failed").asLong())
                .isEqualTo(partial.get("seeds").get(0).get("failed").asLong());
        assertThat(summary.get("requests").asLong())
                .isEqualTo(partial.get("seeds").get(0).get("requests").asLong());
    }

    private static JsonNode scenario(JsonNode evaluation, String name) {
        for (JsonNode s : evaluation.get("scenarios")) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no scenario " + name);
    }
}
