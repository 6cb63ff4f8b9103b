package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.web.LabServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

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
    void runsInCheck_asItsClientReadsTheCluster() {
        CliRunner.Outcome o =
                CliRunner.run("check", "--profile", "toy", "--format", "json", "../docs/examples/search-cluster.yaml");
        assertThat(o.out()).as(o.err()).contains("the toy profile ejects after 5 failures in a row");
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
        // tune's search covers the targets it can write; a profile without a tune facet is refused, not run as Envoy
        CliRunner.run("tune", "--set", "profile=toy")
                .assertRejected("a profile: toy scenario; tune searches the settings of envoy, grpc or gateway");
    }
}
