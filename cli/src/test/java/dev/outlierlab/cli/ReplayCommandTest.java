package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code outlier-lab replay} end to end, and {@code run --access-log} that feeds it. */
class ReplayCommandTest {
    @TempDir
    Path dir;

    private static final String CAP34 = "outlier_detection.max_ejection_percent=34";

    @Test
    void aRunsAccessLogReplaysToTheRunsDecisions() {
        Path log = dir.resolve("access.log");
        CliRunner.Outcome run = CliRunner.run("run", "--format=json", "--set", CAP34, "--access-log", log.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        CliRunner.Outcome replay = CliRunner.run("replay", log.toString(), "--format=json", "--set", CAP34);
        assertThat(replay.exit()).as(replay.err()).isZero();
        JsonNode detector = replay.json().get("detectors").get(0);
        assertThat(replay.json().get("schema").asText()).isEqualTo("outlier-lab.replay.v2");
        assertThat(detector.get("predicted").get("events")).isEqualTo(run.json().get("events"));
        assertThat(replay.json().get("lines").get("read").asLong()).isEqualTo(180_000);
        assertThat(detector.get("predicted")
                        .get("hosts")
                        .get(0)
                        .get("ejected_seconds")
                        .asDouble())
                .isEqualTo(180.0);
    }

    @Test
    void theReleaseGivenIsTheReleaseReplayed() {
        String log = "../docs/examples/replay/search-access.log";
        CliRunner.Outcome replay = CliRunner.run("replay", log, "--format=json", "--set", "envoy_version=1.30");
        assertThat(replay.exit()).as(replay.err()).isZero();
        assertThat(replay.json()
                        .get("detectors")
                        .get(0)
                        .get("predicted")
                        .get("settings")
                        .get("envoy_version")
                        .asText())
                .isEqualTo("1.30");
        // 1.30 has no always_eject_one_host: the replay follows the release it was given, not the newest
        CliRunner.run(
                        "replay",
                        log,
                        "--set",
                        "envoy_version=1.30",
                        "--set",
                        "outlier_detection.always_eject_one_host=true")
                .assertRejected("Envoy 1.30 has no such field");
    }

    @Test
    void theReportKeepsWhatTheLogRecordedApartFromWhatTheSettingsPredict() {
        Path log = dir.resolve("recorded.log");
        assertThat(CliRunner.run("run", "--access-log", log.toString()).exit()).isZero();
        CliRunner.Outcome json = CliRunner.run("replay", log.toString(), "--format=json", "--set", CAP34);
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode detector = json.json().get("detectors").get(0);
        // recorded: the log's own requests and failures, as they happened (host-0 failing 33 % from 30 s to 240 s)
        JsonNode recorded = detector.get("recorded");
        assertThat(recorded.get("requests").asLong()).isEqualTo(180_000);
        assertThat(recorded.get("failed").asLong()).isEqualTo(6_930);
        assertThat(recorded.get("failed_percent").asDouble()).isEqualTo(3.85);
        assertThat(recorded.get("hosts").get(0).get("failed").asLong()).isEqualTo(6_930);
        assertThat(recorded.get("hosts").get(0).get("failed_percent").asDouble())
                .isEqualTo(23.1);
        assertThat(recorded.get("hosts").get(1).get("failed").asLong()).isZero();
        assertThat(recorded.has("ejections_enforced")).isFalse();
        // predicted: the decisions, the requests moved and the failures at most avoided; none of the log's counts
        JsonNode summary = detector.get("predicted").get("summary");
        assertThat(summary.get("ejections_enforced").asInt()).isEqualTo(3);
        assertThat(summary.get("ejected_seconds").asDouble()).isEqualTo(180.0);
        assertThat(summary.get("requests_moved").asLong()).isEqualTo(18_000);
        assertThat(summary.get("failures_avoided_at_most").asLong()).isEqualTo(5_940);
        assertThat(summary.get("failures_left_at_least").asLong()).isEqualTo(990);
        assertThat(summary.has("failed")).isFalse();
        assertThat(summary.has("requests")).isFalse();
        assertThat(detector.get("predicted").get("settings").has("faults")).isFalse();
        JsonNode host0 = detector.get("predicted").get("hosts").get(0);
        assertThat(host0.get("ejections").asInt()).isEqualTo(3);
        assertThat(host0.get("requests_moved").asLong()).isEqualTo(18_000);
        assertThat(host0.has("failed")).isFalse();

        String text = CliRunner.run("replay", log.toString(), "--set", CAP34).out();
        int recordedAt = text.indexOf("What the log recorded");
        int predictedAt = text.indexOf("What these settings predict");
        assertThat(recordedAt).isPositive().isLessThan(predictedAt);
        String recordedPart = text.substring(recordedAt, predictedAt);
        assertThat(recordedPart)
                .contains("requests      180,000 over 300 s to 6 hosts\n", "failed        6,930 (3.85 %)\n")
                .containsPattern("host-0 +30,000 +6,930 +23.10\n")
                .doesNotContain("ejections", "moved", "avoided");
        String predictedPart = text.substring(predictedAt);
        assertThat(predictedPart)
                .contains(
                        "ejections     3\n",
                        "total: 18,000 requests moved; at most 5,940 of the "
                                + "log's 6,930 failures avoided (85.71 %), at least 990 left")
                .containsPattern("host-0 +3 +180 s +18,000 +5,940\n")
                .doesNotContain("failed        6,930");
    }

    @Test
    void replayingTheDefaultsTrafficWithCap34CountsWhatEjectionWouldHaveMoved() {
        Path log = dir.resolve("defaults.log");
        assertThat(CliRunner.run("run", "--access-log", log.toString(), "--access-log-format", "istio")
                        .exit())
                .isZero();
        CliRunner.Outcome replay = CliRunner.run("replay", log.toString(), "--set", CAP34);
        assertThat(replay.exit()).as(replay.err()).isZero();
        assertThat(replay.out())
                .contains(
                        "(format istio)",
                        "== cluster outbound|80||bookstore-search: 180,000 outcomes ==",
                        "total: 18,000 requests moved; at most 5,940 of the log's 6,930 failures avoided");
        // the same ejections as simulating cap 34 (40, 80, 150 s); 990 failures stay, as in that simulation
        assertThat(replay.out())
                .contains(
                        "  00:00:40.000 (40 s)  host-0 eject",
                        "  00:01:20.000 (80 s)  host-0 eject",
                        "  00:02:30.000 (150 s) host-0 eject");
        assertThat(replay.out())
                .containsPattern("host-0 +30,000 +6,930 +23.10\n")
                .containsPattern("host-0 +3 +180 s +18,000 +5,940\n");
    }

    @Test
    void tooManyBadLinesIsExit2WithTheFirstTenAndTheirLineNumbers() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            lines.add(String.format(
                    "[2026-11-30T00:00:%02d.000Z] \"GET / HTTP/1.1\" 200 - 0 0 1 - \"-\" \"t\" \"-\" \"a\" \"h%d\"",
                    i / 10, i % 3));
        }
        for (int i = 0; i < 12; i++) {
            lines.set(10 + i * 10, "garbage " + i);
        }
        Path log = dir.resolve("bad.log");
        Files.write(log, lines, StandardCharsets.UTF_8);
        CliRunner.Outcome o = CliRunner.run("replay", log.toString(), "--log-format", "envoy");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.out()).isEmpty();
        assertThat(o.err())
                .contains(
                        "12 bad lines of 200, more than --max-bad-lines 1% (2); the first 10:",
                        log + ":11: expected \"[\" at column 1", log + ":101: expected")
                .doesNotContain(log + ":111:", "Exception");
        // each bad line on a line of its own, not joined into one line by the escaping of line breaks
        assertThat(o.err().lines())
                .contains("  " + log + ":11: expected \"[\" at column 1")
                .hasSize(11);
        assertThat(o.err()).doesNotContain("\\n");
        CliRunner.Outcome tolerant = CliRunner.run("replay", log.toString(), "--max-bad-lines", "12");
        assertThat(tolerant.exit()).as(tolerant.err()).isZero();
        assertThat(tolerant.out()).contains("12 bad", "bad line     " + log + ":11: expected \"[\" at column 1");
    }

    @Test
    void anUnrecognisedFormatIsExit2NamingWhatWasTried() throws IOException {
        Path log = dir.resolve("nginx.log");
        Files.writeString(log, "127.0.0.1 - - [30/Nov/2026:19:36:35 +0000] \"GET / HTTP/1.1\" 200 612\n");
        CliRunner.Outcome o = CliRunner.run("replay", log.toString());
        o.assertRejected("the access-log format is not recognised; tried envoy", "istio", "istio-1.5", "json");
    }

    @Test
    void badOptionsAreExit2() {
        Path log = dir.resolve("x.log");
        CliRunner.run("run", "--access-log", log.toString());
        CliRunner.run("replay", log.toString(), "--log-format", "apache")
                .assertRejected("--log-format: 'apache' is not a format");
        CliRunner.run("replay", log.toString(), "--max-bad-lines", "lots").assertRejected("--max-bad-lines: 'lots'");
        CliRunner.run("replay", dir.resolve("none.log").toString()).assertRejected("none.log: no such file");
        CliRunner.run("replay", log.toString(), "--duration", "100s")
                .assertRejected("is not before the scenario's duration");
    }

    private static final String TWO_PROXIES = "../docs/examples/replay/search-two-proxies.log";
    private static final String PROXY_FORMAT =
            "[%START_TIME%] %RESPONSE_CODE% %RESPONSE_FLAGS% %DURATION% \"%UPSTREAM_HOST%\" %UPSTREAM_CLUSTER% %HOSTNAME%";

    @Test
    void twoProxiesOfTheClusterGivenAreTwoDetectorsOfItsHosts() {
        CliRunner.Outcome o = CliRunner.run(
                "replay",
                TWO_PROXIES,
                "--envoy",
                "../docs/examples/search-cluster.yaml",
                "--cluster",
                "search",
                "--log-format-string",
                PROXY_FORMAT,
                "--instance-field",
                "HOSTNAME",
                "--format=json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode detectors = o.json().path("detectors");
        assertThat(detectors).hasSize(2);
        for (JsonNode d : detectors) {
            assertThat(d.path("cluster").asText()).isEqualTo("search");
            assertThat(d.path("outcomes").asInt()).isEqualTo(305);
            // each proxy replays the six endpoints of the file, not only the three hosts its lines name
            assertThat(d.path("predicted").path("hosts")).hasSize(6);
            assertThat(d.path("predicted").path("hosts").get(5).path("host").asText())
                    .isEqualTo("10.0.1.15:8080");
        }
        assertThat(detectors.get(0).path("instance").asText()).isEqualTo("proxy-a");
        assertThat(detectors.get(1).path("instance").asText()).isEqualTo("proxy-b");
    }

    @Test
    void hostsGivenForOneClusterAreRefusedForALogOfTwo() throws IOException {
        Path log = dir.resolve("two-clusters.log");
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(TWO_PROXIES))) {
            lines.add(line.contains("proxy-b") ? line.replace(" search ", " checkout ") : line);
        }
        Files.write(log, lines);
        CliRunner.run(
                        "replay",
                        log.toString(),
                        "--envoy",
                        "../docs/examples/search-cluster.yaml",
                        "--log-format-string",
                        PROXY_FORMAT)
                .assertRejected("the log has 2 detectors (cluster search; cluster checkout) but the hosts given are "
                        + "one cluster's: choose one with --cluster NAME");
    }
}
