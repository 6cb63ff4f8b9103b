package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input: one clear message naming the key or line, exit status 2, nothing on stdout, no stack trace. */
class BadInputTest {
    @TempDir
    Path dir;

    private CliRunner.Outcome runFile(String yaml, String... more) throws IOException {
        Path f = dir.resolve("scenario.yaml");
        Files.writeString(f, yaml);
        String[] args = new String[2 + more.length];
        args[0] = "run";
        args[1] = f.toString();
        System.arraycopy(more, 0, args, 2, more.length);
        return CliRunner.run(args);
    }

    @Test
    void malformedYamlNamesLineAndColumn() throws IOException {
        runFile("cluster:\n  hosts: [a, b\n").assertRejected("scenario.yaml:3:1: malformed YAML");
    }

    @Test
    void unknownKeyIsNamedWithItsLine() throws IOException {
        runFile("name: x\noutlier_detection:\n  max_ejection_prcent: 34\n")
                .assertRejected(
                        "scenario.yaml:3: unknown key 'outlier_detection.max_ejection_prcent' (did you mean 'max_ejection_percent'?)");
    }

    @Test
    void negativeRateIsRejected() throws IOException {
        runFile("faults:\n  - hosts: 1\n    error_rate: -5\n")
                .assertRejected("scenario.yaml:3: faults[0].error_rate: -5 is not allowed", "from 0 to 100");
        runFile("traffic:\n  rps: -600\n").assertRejected("scenario.yaml:2: traffic.rps: -600 is not allowed");
    }

    @Test
    void aPercentageTakesOneTrailingPercentSignAndNothingElse() throws IOException {
        String same = runFile("faults:\n  - hosts: 1\n    error_rate: 35\n", "--format", "json")
                .out();
        CliRunner.Outcome signed = runFile("faults:\n  - hosts: 1\n    error_rate: 35%\n", "--format", "json");
        assertThat(signed.exit()).as(signed.err()).isZero();
        assertThat(signed.out()).isNotEmpty().isEqualTo(same);
        runFile("faults:\n  - hosts: 1\n    error_rate: 35%%\n")
                .assertRejected(
                        "scenario.yaml:3: faults[0].error_rate: \"35%%\" is not allowed",
                        "expected a percentage from 0 to 100 with at most 4 decimals");
        runFile("faults:\n  - hosts: 1\n    error_rate: abc\n")
                .assertRejected("scenario.yaml:3: faults[0].error_rate: \"abc\" is not allowed", "from 0 to 100");
        runFile("faults:\n  - hosts: 1\n    error_rate: 101%\n")
                .assertRejected("scenario.yaml:3: faults[0].error_rate: \"101%\" is not allowed", "from 0 to 100");
    }

    @Test
    void maxEjectionTimeBelowBaseIsRejectedAsEnvoyDoes() throws IOException {
        runFile("outlier_detection:\n  base_ejection_time: 60s\n  max_ejection_time: 30s\n")
                .assertRejected(
                        "scenario.yaml:3: outlier_detection.max_ejection_time: 30s is not allowed",
                        "at least base_ejection_time (60s)");
    }

    @Test
    void faultNamingAnUnknownHostIsRejected() throws IOException {
        runFile("cluster:\n  hosts: [a, b]\nfaults:\n  - hosts: [c]\n")
                .assertRejected("scenario.yaml:4: faults[0].hosts: \"c\" is not allowed", "a, b");
    }

    @Test
    void percentOver100AndZeroHostsAndBadDurationAreRejected() throws IOException {
        CliRunner.run("run", "--set", "outlier_detection.enforcing_success_rate=101")
                .assertRejected("--set outlier_detection.enforcing_success_rate: 101 is not allowed", "0 to 100");
        runFile("cluster:\n  hosts: 0\n").assertRejected("scenario.yaml:2: cluster.hosts: 0 is not allowed");
        runFile("duration: 5 minutes\n").assertRejected("scenario.yaml:1: duration: \"5 minutes\" is not allowed");
        // Envoy truncates 1.5ms to 1 ms and accepts it; 0.5ms would be a 0 ms interval, which the lab refuses
        runFile("outlier_detection:\n  interval: 0.5ms\n")
                .assertRejected(
                        "scenario.yaml:2: outlier_detection.interval: \"0.5ms\" is not allowed", "of at least 1ms");
        runFile("envoy_version: 1.25\n")
                .assertRejected(
                        "scenario.yaml:1: envoy_version: \"1.25\" is not allowed",
                        "an Envoy release from 1.26 to 1.40");
        runFile("faults:\n  - hosts: 1\n    result: hang\n")
                .assertRejected(
                        "scenario.yaml:3: faults[0].result: \"hang\" is not allowed",
                        "one of timeout, connect_failed, reset, ext_failed");
    }

    @Test
    void traceLineOutOfOrderNamesTheLine() throws IOException {
        Path trace = dir.resolve("t.jsonl");
        Files.writeString(
                trace,
                "{\"time\": 1, \"host\": \"a\", \"code\": 200}\n# comment\n"
                        + "{\"time\": 0.5, \"host\": \"a\", \"code\": 503}\n");
        CliRunner.run("run", "--trace-in", trace.toString()).assertRejected("t.jsonl:3: time 0.500s is earlier");
    }

    @Test
    void traceWithUnknownHostOrResultNamesTheLine() throws IOException {
        Path trace = dir.resolve("t.jsonl");
        Files.writeString(trace, "{\"time\": 1, \"host\": \"zz\", \"code\": 200}\n");
        CliRunner.run("run", "--set", "cluster.hosts=3", "--trace-in", trace.toString())
                .assertRejected("t.jsonl:1: host: \"zz\" is not a host", "host-0, host-1, host-2");
        Files.writeString(trace, "{\"time\": 1, \"host\": \"a\", \"result\": \"exploded\"}\n");
        CliRunner.run("run", "--trace-in", trace.toString())
                .assertRejected("t.jsonl:1: result: \"exploded\"", "timeout");
        Files.writeString(
                trace,
                "{\"time\": 1, \"host\": \"a\", \"code\": 503}\n{\"time\": 400, \"host\": \"a\", \"code\": 503}\n");
        CliRunner.run("run", "--trace-in", trace.toString()).assertRejected("t.jsonl:2:", "duration");
    }

    @Test
    void missingFileAndBadOptionAreClear() {
        CliRunner.run("run", dir.resolve("nope.yaml").toString()).assertRejected("nope.yaml: no such file");
        CliRunner.run("run", "--format", "xml")
                .assertRejected("--format xml is not available for run; allowed: text, json, csv", "--help");
        CliRunner.run("run", "--set", "noequals").assertRejected("--set noequals: expected KEY=VALUE");
    }
}
