package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27's reader cases through the command line, each with a real file (copies in
 * {@code src/test/resources/hardening}, or generated here): numbers range-checked before any exact
 * conversion and quoted by a short prefix, event-log lines out of range or of an unknown type counted as bad
 * lines, host names from a log escaped, endless or huge inputs ended with a message, a log named twice refused,
 * and no replay spool left in the temporary directory, even when the replay is killed.
 */
class HardeningRoundThreeTest {
    @TempDir
    Path dir;

    private static String resource(String name) {
        try {
            return Paths.get(HardeningRoundThreeTest.class
                            .getResource("/hardening/" + name)
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aHugeExponentIsRefusedBeforeAnyConversionWithAShortMessage() {
        for (String file : new String[] {"envoy-version-huge.yaml", "envoy-version-huge.json"}) {
            CliRunner.Outcome o = CliRunner.run("run", resource(file));
            o.assertRejected(
                    file + ":", "envoy_version: 1E+1000000000 is not allowed; expected a release such as 1.40");
            assertThat(o.err().length()).isLessThan(300);
        }
        CliRunner.Outcome set = CliRunner.run("run", "--set", "envoy_version=1e1000000000");
        set.assertRejected("envoy_version: 1E+1000000000 is not allowed");
        assertThat(set.err().length()).isLessThan(300);
    }

    @Test
    void aJsonLogsStartTimeIsRangeCheckedNotConvertedOrWrapped() {
        for (String file : new String[] {"start-time-huge.jsonl", "start-time-1e30.jsonl"}) {
            CliRunner.Outcome o = CliRunner.run("replay", resource(file), "--log-format", "json");
            assertThat(o.exit()).as(o.err()).isEqualTo(2);
            assertThat(o.err())
                    .contains("is out of range; expected seconds since 1970 from -9223372036 to 9223372036")
                    .doesNotContain("Exception");
            assertThat(o.err().length()).isLessThan(1000);
        }
    }

    private Path accessLog() {
        Path log = dir.resolve("access.jsonl");
        CliRunner.Outcome run = CliRunner.run(
                "run",
                "--set",
                "duration=60s",
                "--set",
                "faults[0].error_rate=100",
                "--set",
                "outlier_detection.max_ejection_percent=100",
                "--access-log",
                log.toString(),
                "--access-log-format",
                "json");
        assertThat(run.exit()).as(run.err()).isZero();
        return log;
    }

    @Test
    void eventLogLinesOutOfRangeOrOfAnUnknownTypeAreBadLinesNotAnInternalError() {
        Path log = accessLog();
        CliRunner.Outcome range =
                CliRunner.run("replay", log.toString(), "--event-log", resource("event-log-out-of-range.jsonl"));
        assertThat(range.exit()).as(range.err()).isZero();
        assertThat(range.out())
                .contains(
                        "3 lines, 1 events, 2 bad",
                        ":1: timestamp 1600-01-01T00:00:00Z is out of range; expected 1677-09-21 to 2262-04-11",
                        ":2: timestamp 2300-01-01T00:00:00Z is out of range");
        CliRunner.Outcome type =
                CliRunner.run("replay", log.toString(), "--event-log", resource("event-type-99.jsonl"));
        assertThat(type.exit()).as(type.err()).isZero();
        assertThat(type.err()).doesNotContain("internal error");
    }

    @Test
    void hostNamesFromALogAreEscapedInTheReport() {
        CliRunner.Outcome o = CliRunner.run("replay", resource("host-names-escapes.jsonl"));
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains("host-\\u001b[2J\\u001b]0;PWN\\u0007", "ho\\u0000st")
                .doesNotContain("\u001b", "\u0000", "\u0007");
    }

    @Test
    void devUrandomEndsAtTheBadLineCount() {
        assumeTrue(Files.isReadable(Path.of("/dev/urandom")), "needs /dev/urandom");
        CliRunner.Outcome o = CliRunner.run("replay", "/dev/urandom", "--max-bad-lines", "10", "--log-format", "json");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err())
                .contains("11 bad lines of 11, more than --max-bad-lines 10 (10); the first 10:")
                .doesNotContain("\u001b");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void devUrandomEndsWithTheDefaultShareOfBadLines() {
        assumeTrue(Files.isReadable(Path.of("/dev/urandom")), "needs /dev/urandom");
        CliRunner.Outcome o = CliRunner.run("replay", "/dev/urandom", "--log-format", "json");
        assertThat(o.exit()).as(o.err()).isEqualTo(2);
        assertStoppedEarly(o);
    }

    @Test
    void aFileOfRandomBytesStopsOnceMostOfTenThousandLinesAreBad() throws IOException {
        // 8 MiB of seeded random bytes: about 32,000 lines (a newline is one byte in 256), all bad
        Path random = dir.resolve("random.bin");
        byte[] bytes = new byte[8 << 20];
        new Random(27).nextBytes(bytes);
        Files.write(random, bytes);
        CliRunner.Outcome o = CliRunner.run("replay", random.toString(), "--log-format", "json");
        assertThat(o.exit()).as(o.err()).isEqualTo(2);
        assertStoppedEarly(o);

        // a random file under 10,000 lines is read to its end and refused by the share, as before
        Files.write(random, Arrays.copyOf(bytes, 1 << 20));
        CliRunner.Outcome small = CliRunner.run("replay", random.toString(), "--log-format", "json");
        assertThat(small.exit()).as(small.err()).isEqualTo(2);
        Matcher m = BAD_OF.matcher(small.err());
        assertThat(m.find()).as(small.err()).isTrue();
        assertThat(Long.parseLong(m.group(2))).isBetween(3_000L, 5_000L);
        assertThat(small.err()).doesNotContain("the reading stopped").doesNotContain("Exception");
    }

    private static final Pattern BAD_OF = Pattern.compile("(\\d+) bad lines of (\\d+)");

    /** Refused at about 10,000 lines, most of them bad, with the usual message and the reason for stopping. */
    private static void assertStoppedEarly(CliRunner.Outcome o) {
        assertThat(o.out()).isEmpty();
        assertThat(o.err())
                .contains(
                        "more than --max-bad-lines 1% (",
                        "(the reading stopped: more than half of the 10,000 lines or more read are bad); the first 10:")
                .doesNotContain("Exception", "\u001b");
        Matcher m = BAD_OF.matcher(o.err());
        assertThat(m.find()).as(o.err()).isTrue();
        long bad = Long.parseLong(m.group(1));
        long lines = Long.parseLong(m.group(2));
        assertThat(lines).isBetween(10_000L, 10_100L);
        assertThat(bad * 2).isGreaterThan(lines);
        assertThat(o.err().lines().count()).isEqualTo(11);
    }

    @Test
    void moreThanAThousandClustersInOneLogAreRefusedWithAMessage() throws IOException {
        Path log = dir.resolve("clusters.jsonl");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i <= 1_000; i++) {
            sb.append("{\"start_time\":\"2026-01-01T00:00:00.")
                    .append(String.format("%06d", i))
                    .append("Z\",\"response_code\":200,\"upstream_host\":\"h\",\"upstream_cluster\":\"c")
                    .append(i)
                    .append("\"}\n");
        }
        Files.writeString(log, sb);
        CliRunner.run("replay", log.toString()).assertRejected("more than 1,000 detectors", "--cluster NAME");
        // tune's reading of a log keeps per-detector state too, under the same bound
        CliRunner.run("tune", "--from-log", log.toString(), "--log-format", "json")
                .assertRejected("line 1001: more than 1,000 detectors");
    }

    @Test
    void aLogNamedTwiceIsRefused() {
        Path log = accessLog();
        CliRunner.run("replay", log.toString(), log.toString())
                .assertRejected(log + ": the same log as " + log, "would count twice");
        Path other = log.getParent().resolve(".").resolve(log.getFileName());
        CliRunner.run("replay", log.toString(), other.toString()).assertRejected("the same log as");
        CliRunner.run("replay", "-", "-").assertRejected("-: standard input is named twice");
    }

    @Test
    void tooManyHostsOrProcessesAreRefusedWithAMessageNotAnOutOfMemoryError() {
        CliRunner.run("check", "--hosts", "2147483647", resource("envoy-6-hosts.yaml"))
                .assertRejected("--hosts: 2147483647 is not allowed; expected 1 to 1000000");
        CliRunner.run("run", resource("gateway-1024-processes.yaml"), "--yes")
                .assertRejected(
                        "the windows would keep",
                        "1024 processes x 10,000 endpoints x 600 buckets",
                        "over the limit of 200,000,000");
    }

    @Test
    void aKilledReplayLeavesNoSpoolInTheTemporaryDirectory() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path log = accessLog();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp,
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "replay",
                "-"));
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(Files.readAllBytes(log));
            in.flush();
            // the replay is reading standard input, which stays open: its spool exists now, if anywhere
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline
                    && p.isAlive()
                    && p.info().totalCpuDuration().map(d -> d.toMillis() < 1500).orElse(false)) {
                Thread.sleep(100);
            }
            Thread.sleep(500);
            assertThat(p.isAlive())
                    .as("still waiting for more of standard input")
                    .isTrue();
            assertThat(spools(tmp))
                    .as("no spool file by name while the replay runs")
                    .isEmpty();
            p.destroy(); // SIGTERM, as an interrupt
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(spools(tmp)).as("nothing left after the interrupt").isEmpty();
    }

    private static List<Path> spools(Path tmp) throws IOException {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(f -> f.getFileName().toString().startsWith("outlier-lab"))
                    .toList();
        }
    }
}
