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
        assertThat(detector.get("run").get("events")).isEqualTo(run.json().get("events"));
        assertThat(replay.json().get("lines").get("read").asLong()).isEqualTo(180_000);
        assertThat(detector.get("hosts").get(0).get("ejected_seconds").asDouble()).isEqualTo(180.0);
    }

    @Test
    void replayingTheDefaultsTrafficWithCap34CountsWhatEjectionWouldHaveMoved() {
        Path log = dir.resolve("defaults.log");
        assertThat(CliRunner.run("run", "--access-log", log.toString(), "--access-log-format", "istio").exit()).isZero();
        CliRunner.Outcome replay = CliRunner.run("replay", log.toString(), "--set", CAP34);
        assertThat(replay.exit()).as(replay.err()).isZero();
        assertThat(replay.out()).contains("(format istio)", "== cluster outbound|80||bookstore-search: 180,000 outcomes ==", "total: 5,940 of 6,930 failed requests");
        // the same ejections as simulating cap 34 (40, 80, 150 s); 990 failures stay, as in that simulation
        assertThat(replay.out()).contains("  40 s  host-0 eject", "  80 s  host-0 eject", "  150 s host-0 eject");
        assertThat(replay.out()).containsPattern("host-0 +30,000 +6,930 +180 s +18,000 +5,940");
    }

    @Test
    void tooManyBadLinesIsExit2WithTheFirstTenAndTheirLineNumbers() throws IOException {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            lines.add(String.format("[2026-11-30T00:00:%02d.000Z] \"GET / HTTP/1.1\" 200 - 0 0 1 - \"-\" \"t\" \"-\" \"a\" \"h%d\"",
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
        assertThat(o.err()).contains("12 bad lines of 200, more than --max-bad-lines 1% (2); the first 10:",
                log + ":11: expected \"[\" at column 1", log + ":101: expected").doesNotContain(log + ":111:", "Exception");
        // each bad line on a line of its own, not joined into one line by the escaping of line breaks
        assertThat(o.err().lines()).contains("  " + log + ":11: expected \"[\" at column 1").hasSize(11);
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
        CliRunner.run("replay", log.toString(), "--log-format", "apache").assertRejected("--log-format: 'apache' is not a format");
        CliRunner.run("replay", log.toString(), "--max-bad-lines", "lots").assertRejected("--max-bad-lines: 'lots'");
        CliRunner.run("replay", dir.resolve("none.log").toString()).assertRejected("none.log: no such file");
        CliRunner.run("replay", log.toString(), "--duration", "100s").assertRejected("is not before the scenario's duration");
    }
}
