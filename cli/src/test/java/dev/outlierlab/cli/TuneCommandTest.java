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

/** {@code outlier-lab tune} on a small suite of one's own (two scenarios), and its refusals of bad input. */
class TuneCommandTest {
    private static final String SUITE = "../docs/examples/tune-suite.yaml";

    /** {@code tune ARGS} on the small suite, 2 seeds, as JSON: quick enough for a unit test. */
    private static CliRunner.Outcome quickTune(String... args) {
        List<String> all = new ArrayList<>(List.of("tune"));
        all.addAll(List.of(args));
        all.addAll(List.of("--suite", SUITE, "--seeds", "2", "--format", "json"));
        return CliRunner.run(all.toArray(String[]::new));
    }

    @Test
    void aSmallSuiteGivesTheSameJsonTwiceWithEveryScenariosFigures() {
        String[] args = {"tune", "--hosts", "6", "--rps", "300", "--suite", SUITE, "--seeds", "3", "--format", "json"};
        CliRunner.Outcome a = CliRunner.run(args);
        assertThat(a.exit()).as(a.err()).isZero();
        CliRunner.Outcome b = CliRunner.run(args);
        assertThat(b.out()).isEqualTo(a.out());
        JsonNode json = a.json();
        assertThat(json.get("suite")).hasSize(2);
        JsonNode rec = json.get("recommended");
        assertThat(rec.get("admissible").asBoolean()).isTrue();
        assertThat(rec.get("setting").get("max_ejection_percent").asLong() >= 17
                        || rec.get("setting").get("always_eject_one_host").asBoolean())
                .isTrue();
        assertThat(rec.get("scenarios")).hasSize(2);
        JsonNode down = rec.get("scenarios").get(1);
        assertThat(down.get("name").asText()).isEqualTo("cache-down");
        assertThat(down.get("seeds")).hasSize(3);
        for (JsonNode seed : down.get("seeds")) {
            assertThat(seed.get("ejections").asLong()).isZero();
        }
        assertThat(rec.get("file").asText()).contains("outlier_detection:");
        assertThat(rec.get("check")).noneMatch(f -> f.asText().startsWith("error "));
        assertThat(json.get("front").size()).isBetween(1, 8);
    }

    @Test
    void theTextNamesTheTargetAndTheIstioRecommendationIsADestinationRule() {
        CliRunner.Outcome o = CliRunner.run(
                "tune", "--hosts", "6", "--rps", "300", "--suite", SUITE, "--seeds", "2", "--target", "istio");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains("target istio")
                .contains("kind: DestinationRule")
                .contains("maxEjectionPercent:")
                .contains("check: no errors");
    }

    @Test
    void badFlagsAreOneMessageAndExitTwo() {
        CliRunner.run("tune", "--hosts", "0", "--rps", "600").assertRejected("--hosts: 0 is not allowed");
        // before: a negative count read as none given ("--hosts: missing")
        CliRunner.run("tune", "--hosts", "-3", "--rps", "600")
                .assertRejected("--hosts: -3 is not allowed; expected 2 to 10000 hosts");
        CliRunner.run("tune", "--hosts", "6", "--rps", "-5").assertRejected("--rps: -5 is not allowed");
        CliRunner.run("tune", "--hosts", "6", "--rps", "0").assertRejected("--rps: 0 is not allowed");
        CliRunner.run("tune", "--rps", "600").assertRejected("--hosts: missing");
        CliRunner.run("tune", "--from", "/dev/null", "--rps", "100")
                .assertRejected(
                        "/dev/null: the file is empty; tune --from takes an Envoy cluster, an Istio DestinationRule, ",
                        "a gRPC service config (grpc-java), a gateway configuration, an nginx upstream, a HAProxy "
                                + "backend, a Caddy reverse_proxy, ",
                        // the test sources' toy profile is in the registry too: its target and its scenarios
                        "a toy scenario block or a lab scenario (profile: envoy, grpc or toy)");
        CliRunner.run("tune", "--hosts", "6").assertRejected("--rps: missing");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--target", "squid")
                .assertRejected("--target: 'squid' is not a target");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--clients", "700")
                .assertRejected("--clients: 700");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--seeds", "0").assertRejected("--seeds: 0");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--max-ejected", "7")
                .assertRejected("--max-ejected: 7");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--max-added-failures", "-1")
                .assertRejected(
                        "--max-added-failures: -1.0 is not allowed; expected 0 to 1000 failed requests per 1,000");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--max-added-failures", "lots")
                .assertRejected("--max-added-failures");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--envoy-version", "2.0")
                .assertRejected("envoy-version");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--format", "xml").assertRejected("--format");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--explain", "nope")
                .assertRejected("--explain: 'nope' is not a scenario");
    }

    @Test
    void unreadableFromAndSuiteFilesAreOneMessageAndExitTwo(@TempDir Path dir) throws IOException {
        CliRunner.run("tune", "--from", dir.resolve("missing.yaml").toString(), "--rps", "600")
                .assertRejected("missing.yaml");
        Path garbage = Files.writeString(dir.resolve("garbage.yaml"), "outlier_detection: [1, 2\n");
        CliRunner.run("tune", "--from", garbage.toString(), "--rps", "600").assertRejected("garbage.yaml");
        Path suite = Files.writeString(dir.resolve("suite.yaml"), "suite: swap\nscenarios: []\n");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--suite", suite.toString())
                .assertRejected("suite: 'swap' is not allowed");
        CliRunner.run(
                        "tune",
                        "--hosts",
                        "6",
                        "--rps",
                        "600",
                        "--suite",
                        dir.resolve("none.yaml").toString())
                .assertRejected("none.yaml: cannot be read");
    }

    @Test
    void fromAnEnvoyClusterTakesItsHostsAndTarget() {
        CliRunner.Outcome o = quickTune("--from", "../docs/examples/search-cluster.yaml", "--rps", "300");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode req = o.json().get("request");
        assertThat(req.get("hosts").asInt()).isEqualTo(6);
        assertThat(req.get("target").asText()).isEqualTo("envoy");
        assertThat(req.get("from").asText()).endsWith("search-cluster.yaml");
        // the diff is against the file itself, which leaves max_ejection_percent at Envoy's default: the field is added
        assertThat(o.json().get("recommended").get("diff").asText())
                .contains("@@ -")
                .contains("+  max_ejection_percent: ")
                .doesNotContain("-  connect_timeout");
        assertThat(o.json().get("recommended").get("spliced").asBoolean()).isTrue();
        assertThat(o.json().get("recommended").get("file").asText())
                .contains("connect_timeout: 0.25s")
                .contains("address: 10.0.1.15");
    }

    @Test
    void anAccessLogGivesTheRateAndTheHosts(@TempDir Path dir) {
        Path log = dir.resolve("access.log");
        CliRunner.Outcome run = CliRunner.run("run", "--set", "duration=60s", "--access-log", log.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        CliRunner.Outcome o = CliRunner.run(
                "tune", "--from-log", log.toString(), "--suite", SUITE, "--seeds", "2", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode req = o.json().get("request");
        // 36,000 lines over 60 s from one proxy to six hosts
        assertThat(req.get("hosts").asInt()).isEqualTo(6);
        assertThat(req.get("rps").asLong()).isEqualTo(600);
        assertThat(req.get("clients").asInt()).isEqualTo(1);
        CliRunner.run("tune", "--from-log", dir.resolve("none.log").toString(), "--rps", "600", "--hosts", "6")
                .assertRejected("none.log");
    }

    @Test
    void anAccessLogGivesTheHealthyPoolsBaseErrorRateAndSaysWhatItTook(@TempDir Path dir) throws IOException {
        Path scenario = Files.writeString(
                dir.resolve("noisy.yaml"),
                "duration: 60s\nfaults:\n"
                        + "  - {hosts: [host-1, host-2, host-3, host-4, host-5], start: 0s, end: 60s, error_rate: 1, pattern: random}\n"
                        + "  - {hosts: [host-0], start: 0s, end: 60s, error_rate: 30, pattern: random}\n");
        Path log = dir.resolve("access.log");
        CliRunner.Outcome run = CliRunner.run("run", scenario.toString(), "--access-log", log.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        CliRunner.Outcome o = CliRunner.run(
                "tune", "--from-log", log.toString(), "--suite", SUITE, "--seeds", "2", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode req = o.json().get("request");
        // host-0 fails 30 %, more than the pool: the base rate is the other five's, about 1 %
        assertThat(req.get("base_error_percent").asDouble()).isBetween(0.8, 1.2);
        assertThat(req.get("notes").get(0).asText())
                .startsWith("from the log " + log + ": 36,000 requests over 60 s, "
                        + "600 rps to 6 hosts (100 rps a host) from 1 caller (600 rps a caller); base error rate")
                .endsWith("over the 5 hosts that fail no more than the pool");
        CliRunner.Outcome text = CliRunner.run("tune", "--from-log", log.toString(), "--suite", SUITE, "--seeds", "2");
        assertThat(text.out())
                .contains("  from the log ")
                .contains("the built-in scenarios' healthy hosts fail at that base rate")
                .contains("the suite file replaces the built-in scenarios; its own keep their own faults");
    }

    @Test
    void aBadLogAndGrpcWithSeveralCallersAreOneMessageAndExitTwo(@TempDir Path dir) throws IOException {
        Path garbage = Files.writeString(dir.resolve("garbage.log"), "not a log line\n".repeat(20));
        CliRunner.Outcome bad = CliRunner.run(
                "tune", "--from-log", garbage.toString(), "--hosts", "6", "--rps", "600", "--log-format", "envoy");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.out()).isEmpty();
        assertThat(bad.err())
                .startsWith("outlier-lab: 20 bad lines of 20, more than --max-bad-lines 1% (0); the first 10:")
                .doesNotContain("Exception");
        CliRunner.run("tune", "--from-log", dir.toString(), "--hosts", "6", "--rps", "600")
                .assertRejected(dir.toString());
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--target", "grpc", "--clients", "5")
                .assertRejected("--clients: 5 is not allowed with --target grpc; the gRPC profile runs one channel");
        CliRunner.run("tune", "--from", "../docs/examples/gateway-check.yaml", "--rps", "600", "--target", "envoy")
                .assertRejected(
                        "--target envoy: ../docs/examples/gateway-check.yaml is a gateway configuration; tune it "
                                + "with --target gateway");
        CliRunner.run("tune", "--from", "../docs/examples/search-cluster.yaml", "--rps", "600", "--target", "gateway")
                .assertRejected("tune it with --target envoy");
    }

    @Test
    void aServiceConfigAndAGatewayConfigurationAreTunedForTheirOwnTargets() {
        CliRunner.Outcome grpc =
                quickTune("--from", "../docs/examples/grpc-service-config.json", "--hosts", "6", "--rps", "300");
        assertThat(grpc.exit()).as(grpc.err()).isZero();
        assertThat(grpc.json().get("request").get("target").asText()).isEqualTo("grpc");
        assertThat(grpc.json().get("recommended").get("file").asText()).contains("\"outlier_detection_experimental\"");
        assertThat(grpc.json().get("recommended").get("check"))
                .noneMatch(f -> f.asText().startsWith("error "));
        CliRunner.Outcome gateway = quickTune("--from", "../docs/examples/gateway-check.yaml", "--rps", "300");
        assertThat(gateway.exit()).as(gateway.err()).isZero();
        assertThat(gateway.json().get("request").get("target").asText()).isEqualTo("gateway");
        assertThat(gateway.json().get("request").get("hosts").asInt()).isEqualTo(2);
        assertThat(gateway.json().get("recommended").get("file").asText()).startsWith("profile: gateway\n");
        // the same inputs, the same bytes, under both profiles
        assertThat(quickTune("--from", "../docs/examples/grpc-service-config.json", "--hosts", "6", "--rps", "300")
                        .out())
                .isEqualTo(grpc.out());
        assertThat(quickTune("--from", "../docs/examples/gateway-check.yaml", "--rps", "300")
                        .out())
                .isEqualTo(gateway.out());
    }

    @Test
    void onFourHostsTheLabelsSayTheDetectorsThatCannotRunAreOff(@TempDir Path dir) throws IOException {
        // Envoy's defaults: success rate on (1.9 over 100 requests) but only from 5 hosts; failure percentage at 85 %
        // from 5 hosts too: on 4 hosts neither runs, as the scorecard says, and the label says it too
        Path four = dir.resolve("four.yaml");
        Files.writeString(
                four,
                Files.readString(Path.of("../docs/examples/search-cluster.yaml"))
                        .replaceAll(
                                "(?m)^ *- endpoint: \\{address: \\{socket_address: \\{address: 10\\.0\\.1\\.1[45].*\n",
                                "")
                        .replace(
                                "  base_ejection_time: 30s\n",
                                "  base_ejection_time: 30s\n  enforcing_failure_percentage: 100\n"));
        CliRunner.Outcome json = quickTune("--from", four.toString(), "--rps", "300");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.json().get("request").get("hosts").asInt()).isEqualTo(4);
        assertThat(json.json().get("current").get("label").asText())
                .isEqualTo("c5xx=5 sr=off (4 hosts < min 5) fp=off (4 hosts < min 5) every 10s out 30s cap 10%");
        // its own fields still say what the file says
        assertThat(json.json()
                        .get("current")
                        .get("setting")
                        .get("success_rate_stdev_factor")
                        .asInt())
                .isEqualTo(1900);
        CliRunner.Outcome text =
                CliRunner.run("tune", "--from", four.toString(), "--rps", "300", "--suite", SUITE, "--seeds", "2");
        assertThat(text.out())
                .contains("): c5xx=5 sr=off (4 hosts < min 5) fp=off (4 hosts < min 5) every 10s out 30s cap 10%\n")
                .doesNotContain("sr=1.9/100");
        // on six hosts both run and the label gives their thresholds
        CliRunner.Outcome six = quickTune("--from", "../docs/examples/search-cluster.yaml", "--rps", "300");
        assertThat(six.json().get("current").get("label").asText()).startsWith("c5xx=5 sr=1.9/100 fp=off every");
    }

    @Test
    void theClustersHealthCheckIsSaidAndRunsInTheSuite() {
        CliRunner.Outcome o = quickTune("--from", "../docs/examples/search-cluster.yaml", "--rps", "300");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode req = o.json().get("request");
        assertThat(req.get("health_checks").asText()).isEqualTo("every 5s, unhealthy after 3, healthy after 2");
        assertThat(req.get("notes").get(0).asText())
                .startsWith("health checks from ../docs/examples/search-cluster.yaml: " + "every 5s");
        // a gRPC target runs no health checks, and says so
        CliRunner.Outcome grpc =
                quickTune("--from", "../docs/examples/search-cluster.yaml", "--rps", "300", "--target", "grpc");
        assertThat(grpc.exit()).as(grpc.err()).isZero();
        assertThat(grpc.json().get("request").get("notes"))
                .anyMatch(n -> n.asText()
                        .equals("health_checks are not run: " + "gRPC's outlier detection has no health-check return"));
    }
}
