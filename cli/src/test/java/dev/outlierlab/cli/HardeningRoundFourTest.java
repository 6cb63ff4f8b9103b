package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The readers' cases of the fourth hardening round, each exit 2 with one short message: a suite naming
 * {@code /dev/zero}, a file outside its directory (a {@code .env} whose secret must not reach the message), a NUL
 * in a file name; a kgateway health check of {@code 1e9h} or a threshold of 2^63, {@code targetRefs: 7};
 * {@code --max-bad-lines NaN%}; {@code tune --from-log} of a log spanning one second or of an outage; a
 * 50,000-character {@code --explain}.
 */
class HardeningRoundFourTest {
    private static final String SECRET = "AWS_SECRET_ACCESS_KEY=do-not-print-me";

    @TempDir
    Path dir;

    @Test
    void aSuiteNamingADeviceOrAFileOutsideItsDirectoryIsRefusedWithoutItsContent() throws IOException {
        Path env = Files.writeString(dir.resolve(".env"), SECRET + "\n");
        Path sub = Files.createDirectories(dir.resolve("suites"));
        for (String name : new String[] {"/dev/zero", "../.env", env.toString()}) {
            Path suite = Files.writeString(
                    sub.resolve("suite.yaml"), "scenarios:\n  - file: " + name + "\n    expect: eject\n");
            CliRunner.Outcome o = CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--suite", suite.toString());
            assertThat(o.exit()).as(o.err()).isEqualTo(2);
            assertThat(o.err())
                    .contains("is outside the suite's directory")
                    .doesNotContain("do-not-print-me")
                    .doesNotContain("Exception");
        }
        Files.createSymbolicLink(sub.resolve("zero.yaml"), Path.of("/dev/zero"));
        Path linked =
                Files.writeString(sub.resolve("suite.yaml"), "scenarios:\n  - file: zero.yaml\n    expect: eject\n");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--suite", linked.toString())
                .assertRejected("is outside the suite's directory");
        Path nul = Files.writeString(
                sub.resolve("suite.yaml"), "scenarios:\n  - file: \"a\\0b.yaml\"\n    expect: eject\n");
        CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--suite", nul.toString())
                .assertRejected("is not a file name (it has a NUL character)");
    }

    @Test
    void theSuiteFileItselfIsReadWithinItsBound() {
        CliRunner.Outcome o = CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--suite", "/dev/zero");
        assertThat(o.exit()).as(o.err()).isEqualTo(2);
        assertThat(o.err())
                .contains("/dev/zero")
                .doesNotContain("OutOfMemoryError")
                .doesNotContain("Exception");
    }

    @Test
    void kgatewayHealthChecksAndTargetRefsAreRefusedWithTheAllowedRange() throws IOException {
        String policy = "kind: BackendConfigPolicy\napiVersion: gateway.kgateway.dev/v1alpha1\nmetadata:\n  name: p\n"
                + "spec:\n  targetRefs:\n    - name: httpbin\n      kind: Service\n  outlierDetection:\n"
                + "    consecutive5xx: 5\n  healthCheck:\n    interval: %s\n    unhealthyThreshold: %s\n"
                + "    healthyThreshold: 2\n";
        Path interval = Files.writeString(dir.resolve("interval.yaml"), policy.formatted("1e9h", "3"));
        CliRunner.run("check", interval.toString(), "--hosts", "2")
                .assertRejected("healthCheck.interval: \"1e9h\" is not allowed; expected a duration");
        Path threshold =
                Files.writeString(dir.resolve("threshold.yaml"), policy.formatted("5s", "9223372036854775808"));
        CliRunner.run("check", threshold.toString(), "--hosts", "2")
                .assertRejected(
                        "healthCheck.unhealthyThreshold: \"9223372036854775808\" is not allowed; expected a whole "
                                + "number from 1 to 1000000");
        Path refs = Files.writeString(
                dir.resolve("refs.yaml"),
                policy.formatted("5s", "3")
                        .replace("  targetRefs:\n    - name: httpbin\n      kind: Service\n", "  targetRefs: 7\n"));
        CliRunner.run("check", refs.toString(), "--hosts", "2").assertRejected("targetRefs: 7 is not allowed");
    }

    @Test
    void aPercentageOfBadLinesIsANumberFromZeroToAHundred() throws IOException {
        Path log = dir.resolve("a.log");
        assertThat(CliRunner.run("run", "--set", "duration=10s", "--access-log", log.toString())
                        .exit())
                .isZero();
        for (String bad : new String[] {"NaN%", "Infinity%", "1e2%", "101%", "-1%"}) {
            CliRunner.run("replay", log.toString(), "--max-bad-lines", bad)
                    .assertRejected("--max-bad-lines: '" + bad + "' is not allowed");
        }
    }

    @Test
    void aLogOfOneSecondOrOfAnOutageGivesNoRateAndNoBaseErrorRate() throws IOException {
        Path burst = dir.resolve("burst.log");
        assertThat(CliRunner.run(
                                "run",
                                "--set",
                                "duration=1s",
                                "--set",
                                "traffic.rps=10000",
                                "--access-log",
                                burst.toString())
                        .exit())
                .isZero();
        CliRunner.run("tune", "--from-log", burst.toString(), "--hosts", "6")
                .assertRejected("under the 5 s a rate can be measured from; give the cluster's rate with --rps");
        Path outage = Files.writeString(
                dir.resolve("outage.yaml"),
                "duration: 60s\nfaults:\n" + "  - {hosts: 6, start: 0s, end: 60s, error_rate: 100}\n");
        Path log = dir.resolve("outage.log");
        assertThat(CliRunner.run("run", outage.toString(), "--access-log", log.toString())
                        .exit())
                .isZero();
        CliRunner.run("tune", "--from-log", log.toString(), "--rps", "600")
                .assertRejected("an outage, not a base error rate");
    }

    @Test
    void aLongExplainIsEchoedAsAShortPrefix() {
        CliRunner.Outcome o = CliRunner.run("tune", "--hosts", "6", "--rps", "600", "--explain", "x".repeat(50_000));
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("x".repeat(100) + "... (50000 characters)").hasSizeLessThan(2_000);
    }
}
