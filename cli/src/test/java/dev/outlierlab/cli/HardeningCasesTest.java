package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every reproducer of issue 12 that belongs to the readers, the command line and the reports, run through the
 * command line: each ends in one message and exit status 2 (or the correct result), never a stack trace, an
 * OutOfMemoryError or minutes of work. The files are copies in {@code src/test/resources/hardening}.
 */
class HardeningCasesTest {
    @TempDir
    Path dir;

    private static String resource(String name) {
        try {
            return Paths.get(HardeningCasesTest.class
                            .getResource("/hardening/" + name)
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aliasBombsAreRefusedWithTheirLine() {
        for (String bomb : new String[] {"billion-laughs.yaml", "laughs-7.yaml", "laughs-8.yaml"}) {
            CliRunner.run("run", resource(bomb))
                    .assertRejected(bomb + ":1: aliases expand to more than 100,000 nodes", "write the values out");
        }
        CliRunner.run("check", resource("lol7-envoy.yaml")).assertRejected("lol7-envoy.yaml:1: aliases expand");
        CliRunner.run("run", "--envoy", resource("lol7-envoy.yaml")).assertRejected("aliases expand");
    }

    @Test
    void recursiveAliasesAreNamedWithTheirLine() {
        CliRunner.run("run", resource("recursive-alias.yaml"))
                .assertRejected("recursive-alias.yaml:1: a recursive alias: the anchor &a is used inside itself");
        CliRunner.run("run", resource("recursive-alias-map.yaml"))
                .assertRejected("recursive-alias-map.yaml:1: a recursive alias: the anchor &c");
    }

    @Test
    void controlCharactersInNamesAreEscaped() {
        CliRunner.Outcome run = CliRunner.run("run", resource("ansi.yaml"));
        assertThat(run.exit()).isZero();
        assertThat(run.out())
                .startsWith("outlier-lab run: \\u001b]0;PWNED\\u0007\\u001b[2J\\u001b[31mred (300 s")
                .contains("faults        evil\\u001b[1A\\u001b[2K\\rforged line: 100 % fail")
                .doesNotContain("\u001b", "\u0007", "\r");
        CliRunner.Outcome check = CliRunner.run("check", resource("ansi-cluster.yaml"));
        assertThat(check.out())
                .contains("\nevil\\u001b[2J\\u001b]0;PWN\\u0007  ")
                .doesNotContain("\u001b", "\u0007");
        CliRunner.run(
                        "run",
                        "--set",
                        "name=x",
                        "--set",
                        "cluster.hosts=[a, \"b\\e[2J\"]",
                        "--set",
                        "faults[0].hosts=[\"c\\e[2J\"]")
                .assertRejected("\\u001b[2J");
    }

    @Test
    void numbersOutOfRangeAreErrorsNotWrapped() {
        CliRunner.run("run", "--envoy", resource("hc-interval-overflow.yaml"))
                .assertRejected(
                        "hc-interval-overflow.yaml:16",
                        "health_checks.interval: 18446744074s is not allowed",
                        "at most 10 years");
        CliRunner.run("run", "--set", "traffic.rps=18446744073709552216.0")
                .assertRejected("traffic.rps: 18446744073709552216.0 is not allowed", "from 1 to 1000000000");
        CliRunner.run("run", "--set", "faults[2147483648].error_rate=1")
                .assertRejected("faults[2147483648].error_rate: index 2147483648 is out of range");
        CliRunner.run("run", "--set", "duration=1e2147483647").assertRejected("duration: 1E+2147483647 is not allowed");
        CliRunner.run("run", "--trace-in", resource("time-exp-huge.jsonl"))
                .assertRejected("time-exp-huge.jsonl:1: time: 1E+2147483647 is not allowed");
    }

    @Test
    void traceLinesAreStrictAndAByteOrderMarkIsAccepted() {
        CliRunner.run("run", "--trace-in", resource("trailing-garbage.jsonl"))
                .assertRejected("trailing-garbage.jsonl:1:", "garbage");
        CliRunner.run("run", "--trace-in", resource("two-objects-one-line.jsonl"))
                .assertRejected("two-objects-one-line.jsonl:1: more than one JSON value on the line");
        CliRunner.run("run", "--trace-in", resource("dup-field.jsonl"))
                .assertRejected("dup-field.jsonl:1: a field appears twice", "'host'");
        CliRunner.Outcome bom = CliRunner.run("run", "--trace-in", resource("bom.jsonl"), "--set", "duration=10s");
        assertThat(bom.exit()).as(bom.err()).isZero();
        assertThat(bom.out()).contains("1 hosts (host-0)", "(1 records)");
    }

    @Test
    void aTraceFromStandardInputIsReadOnceAndReplayedWhole() throws IOException {
        String trace = Files.readString(Path.of(resource("trace-ok.jsonl")));
        CliRunner.Outcome fromFile =
                CliRunner.run("run", "--trace-in", resource("trace-ok.jsonl"), "--set", "duration=10s");
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream(trace.getBytes(StandardCharsets.UTF_8)));
            CliRunner.Outcome fromPipe = CliRunner.run("run", "--trace-in", "-", "--set", "duration=10s");
            assertThat(fromPipe.exit()).as(fromPipe.err()).isZero();
            assertThat(fromPipe.out())
                    .contains("2 hosts (host-0 .. host-1)", "(2 records)", "failed        1 of 2 requests")
                    .isEqualTo(fromFile.out().replace(resource("trace-ok.jsonl"), "-"));
        } finally {
            System.setIn(stdin);
        }
    }

    @Test
    void endlessAndOverlongInputGetAMessage() throws IOException {
        Path longLine = dir.resolve("name-1.yaml");
        Files.writeString(longLine, "name: " + "n".repeat(1024 * 1024) + "\n");
        CliRunner.run("run", longLine.toString())
                .assertRejected("name-1.yaml:1: line 1 is longer than 262,144 characters");
        if (Files.isReadable(Path.of("/dev/zero"))) {
            CliRunner.run("run", "/dev/zero").assertRejected("/dev/zero:1: line 1 is longer than");
            CliRunner.run("run", "--trace-in", "/dev/zero").assertRejected("/dev/zero:1: line 1 is longer than");
            CliRunner.run("check", "/dev/zero").assertRejected("/dev/zero:1: line 1 is longer than");
            CliRunner.run("replay", "/dev/zero", "--log-format", "envoy")
                    .assertRejected(
                            "/dev/zero:1: cannot be read (line 1 has no line break within 64 MiB: not a text log)");
        }
        Path big = dir.resolve("big.yaml");
        Files.writeString(big, "# padding\n".repeat(900_000));
        CliRunner.run("run", big.toString()).assertRejected("big.yaml: the file is larger than 8 MiB");
    }

    @Test
    void thousandsOfIstioDocumentsAndAMillionHostsAreQuick() throws IOException {
        Path many = dir.resolve("drq-20000.yaml");
        Files.writeString(
                many,
                "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata: {name: r}\n" + "spec: {host: r}\n"
                        + "---\nkind: X\n".repeat(20_000));
        CliRunner.Outcome istio = CliRunner.run("check", many.toString(), "--hosts", "6");
        assertThat(istio.exit()).as(istio.err()).isZero();
        assertThat(istio.out()).contains("outlier-lab check " + many + ": 1 cluster");
        CliRunner.Outcome hosts = CliRunner.run("check", resource("envoy-6-hosts.yaml"), "--hosts", "1000000");
        assertThat(hosts.err()).isEmpty();
        assertThat(hosts.out()).contains("1000000 hosts");
    }

    @Test
    void neverActiveFaultsCostNothingPerRequest() {
        CliRunner.Outcome o = CliRunner.run("run", resource("inactive-faults.json"), "--events", "0");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out()).contains("failed        0 of 19,999,800 requests");
    }

    @Test
    void workOverAMinuteIsRefusedWithTheEstimateUnlessAllowed() {
        // the event-driven path counts every request instead of walking it (host-0's even fault is planned from
        // its draws), so the estimate of ten years of the default scenario is its fault's draws and failures (21,000
        // requests, a draw an eighth each, 6,930 failures at 10) and its ticks and seconds
        CliRunner.run("run", "--set", "duration=87600h")
                .assertRejected(
                        "this run is estimated at 6 min of work",
                        "189,216,000,000 simulated requests (all counted, not walked",
                        "71,925 request-equivalents of the faults' draws and failures",
                        "--yes");
        // health checks are events of the event-driven path too: the requests are still counted, the probes added
        CliRunner.run("run", "--set", "duration=87600h", "--set", "health_checks.interval=5s")
                .assertRejected(
                        "this run is estimated at 10 min",
                        "(all counted, not walked",
                        "host evaluations at ticks and health checks",
                        "--yes");
        // with Poisson arrivals every request is walked
        CliRunner.run("run", "--set", "duration=8760h", "--set", "traffic.arrivals=poisson")
                .assertRejected("this run is estimated at", "18,921,600,000 simulated requests, ", "--yes");
        CliRunner.run("sweep", "--set", "duration=20000h", "--vary", "cluster.hosts=6,7")
                .assertRejected("this sweep of 2 runs is estimated at");
        CliRunner.run("run", "--set", "duration=3650d").assertRejected("duration");
        CliRunner.Outcome defaults = CliRunner.run("run");
        assertThat(defaults.exit()).isZero();
        assertThat(defaults.err()).as("no progress off a terminal").isEmpty();
    }

    @Test
    void eventsZeroKeepsCountsAndPrintsTheSameAsBefore() {
        CliRunner.Outcome all = CliRunner.run("run", "--events", "1000");
        CliRunner.Outcome none = CliRunner.run("run", "--events", "0");
        assertThat(none.out()).contains("  ... 21 more decisions (raise --events");
        // the verdict, the inputs and the results are the same (the hinges echo the command line, which differs)
        String before = all.out().substring(0, all.out().indexOf("\nWhat the answer hinges on\n"));
        assertThat(none.out()).startsWith(before);
    }
}
