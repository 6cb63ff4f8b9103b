package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} and {@code sweep} with {@code profile: gateway} scenarios, end to end through the command:
 * JSON (spec gateway-profile section 6), the text report's explanations, {@code --stages FILE}, and bad input.
 */
class GatewayRunCommandTest {
    @TempDir
    Path dir;

    private Path file(String yaml) throws IOException {
        Path f = dir.resolve("gateway.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private static final String TWO = """
            profile: gateway
            name: two-providers
            cluster: {hosts: [azure, openai]}
            traffic: {rps: 10}
            faults: [{hosts: [azure], error_rate: 33, start: 0s, end: 300s, pattern: even}]
            """;

    @Test
    void jsonHasTheScenarioSummaryEventsAndNotes() throws IOException {
        CliRunner.Outcome o =
                CliRunner.run("run", file(TWO).toString(), "--set", "faults[0].error_rate=100", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode j = o.json();
        assertThat(j.at("/scenario/profile").asText()).isEqualTo("gateway");
        assertThat(j.at("/scenario/gateway/mode").asText()).isEqualTo("prod");
        JsonNode s = j.get("summary");
        assertThat(s.get("requests").asLong()).isEqualTo(3000);
        assertThat(s.get("failed_requests").asLong()).isEqualTo(30);
        assertThat(s.at("/endpoints/azure/attempts").asLong()).isEqualTo(30);
        assertThat(s.at("/endpoints/openai/attempts").asLong()).isEqualTo(2970);
        assertThat(s.at("/endpoints/azure/ejected_seconds_per_process/0").asDouble())
                .isEqualTo(296.0);
        assertThat(s.at("/ejections/consecutive").asLong()).isEqualTo(10);
        JsonNode first = j.get("events").get(0);
        assertThat(first.get("time_ns").asLong()).isEqualTo(400_000_000L);
        assertThat(first.get("endpoint").asText()).isEqualTo("azure");
        assertThat(first.get("action").asText()).isEqualTo("eject");
        assertThat(first.get("reason").asText()).isEqualTo("consecutive");
        assertThat(first.get("consecutive").asLong()).isEqualTo(3);
        assertThat(first.get("return_at").asDouble()).isEqualTo(30.4);
        assertThat(first.get("explanation").asText())
                .isEqualTo("0.400 s: azure (process 0) 3 failures in a row "
                        + "(consecutive_failures 3) -> ejected until 30.400 s (30 s, no probe)");
        assertThat(j.get("notes").get(0).asText()).contains("sqrt(1) = 1.000", "can never fire");
    }

    @Test
    void textExplainsWhyTwoProvidersNeverEject() throws IOException {
        CliRunner.Outcome o = CliRunner.run("run", file(TWO).toString());
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains(
                        "failed        495 of 3,000 requests as the caller saw them",
                        "none: no endpoint was ejected",
                        "2 endpoints, peer_set all: no endpoint can lie more than sqrt(1) = 1.000 standard deviations",
                        "at most 1 in a row, fewer than consecutive_failures 3, so the hard trip never fires");
    }

    @Test
    void textExplainsOrderedRoutingAndTooLittleTraffic() throws IOException {
        CliRunner.Outcome o = CliRunner.run(
                "run",
                file(TWO).toString(),
                "--set",
                "routing.strategy=ordered",
                "--set",
                "traffic.rps=1",
                "--set",
                "routing.fallbacks=1");
        assertThat(o.out())
                .contains(
                        "routing ordered: every request goes to azure while it is in rotation",
                        "(attempts: azure 300, openai 99)")
                .doesNotContain("fewer than min_requests");
        CliRunner.Outcome starved =
                CliRunner.run("run", file(TWO).toString(), "--set", "traffic.rps=1", "--set", "gateway.window=5s");
        assertThat(starved.out())
                .contains("each endpoint gets about 2.5 attempts per 5 s window in a process, fewer "
                        + "than min_requests 5");
    }

    @Test
    void stagesFileHasOneJsonLinePerRecordedStage() throws IOException {
        Path stages = dir.resolve("stages.jsonl");
        CliRunner.Outcome o = CliRunner.run(
                "run",
                "--set",
                "profile=gateway",
                "--set",
                "gateway.mode=shadow",
                "--stages",
                stages.toString(),
                "--format",
                "json");
        assertThat(o.exit()).as(o.err()).isZero();
        List<String> lines = Files.readAllLines(stages);
        assertThat(lines)
                .hasSize((int) o.json().at("/summary/would_eject_stages").asLong())
                .hasSize(125_993);
        JsonNode first = new ObjectMapper().readTree(lines.get(0));
        assertThat(first.toString())
                .isEqualTo("{\"time\":32.661666666,\"time_ns\":32661666666,\"request\":19597,"
                        + "\"process\":0,\"mode\":\"shadow\",\"action\":\"would_eject\",\"endpoints\":[\"host-0\"]}");
        assertThat(dir.toFile().list()).containsExactlyInAnyOrder("stages.jsonl");
    }

    @Test
    void sweepTakesGatewayScenarios() throws IOException {
        CliRunner.Outcome o =
                CliRunner.run("sweep", "--set", "profile=gateway", "--vary", "cluster.hosts=4,6", "--format", "csv");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).isEqualTo("""
                cluster.hosts,ejections,consecutive,success_rate,kept_all,would_eject,failed_percent,failed_percent_in_fault
                4,0,0,0,0,0,5.78,8.25
                6,7,0,7,0,0,0.05,0.08
                """);
        CliRunner.run("sweep", "--vary", "profile=envoy,gateway")
                .assertRejected("every run of a sweep must have the same profile");
    }

    @Test
    void badGatewayInputIsOneMessageWithKeyValueAndLine() throws IOException {
        CliRunner.run("run", file("profile: gateway\ngateway:\n  mode: live\n").toString())
                .assertRejected(
                        "gateway.yaml:3: gateway.mode: \"live\" is not allowed; expected one of off, shadow, prod");
        CliRunner.run(
                        "run",
                        file("profile: gateway\ngateway:\n  window: 90s\n  bucket: 7s\n")
                                .toString())
                .assertRejected(
                        "gateway.yaml:3: gateway.window: 90s is not allowed; expected a whole number of buckets");
        CliRunner.run(
                        "run",
                        file("profile: gateway\ncluster: {hosts: 3}\nrouting: {strategy: weighted, weights: [1, 2]}\n")
                                .toString())
                .assertRejected("gateway.yaml:3: routing.weights: [1, 2] is not allowed", "(3 endpoints, 2 weights)");
        CliRunner.run(
                        "run",
                        file("profile: gateway\ngateway: {stdev_factor: -1}\n").toString())
                .assertRejected("gateway.yaml:2: gateway.stdev_factor: -1 is not allowed");
        CliRunner.run(
                        "run",
                        file("profile: gateway\noutlier_detection: {interval: 5s}\n")
                                .toString())
                .assertRejected("gateway.yaml:2: outlier_detection is Envoy's (profile: envoy) setting");
        CliRunner.run("run", "--set", "routing.fallbacks=2")
                .assertRejected("--set routing.fallbacks: routing is the gateway profile's setting");
        CliRunner.run("run", "--set", "profile=gateway", "--trace-in", "x.jsonl")
                .assertRejected("--trace-in, --envoy and --istio take profile: envoy scenarios");
        CliRunner.run("run", "--stages", dir.resolve("s.jsonl").toString())
                .assertRejected("stage records belong to profile: gateway");
    }
}
