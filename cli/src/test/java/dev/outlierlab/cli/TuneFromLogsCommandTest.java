package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code tune --istio RULE --from-log} with one log per proxy, as replay takes them: the rate and the callers are
 * the logs' (not the built-in scenario's 600 rps and one caller), and the report says where they came from.
 */
class TuneFromLogsCommandTest {
    @Test
    void theRateAndCallersComeFromTheLogsOfEachProxy() {
        String dir = MeshLogReplayTest.DIR;
        CliRunner.Outcome o = CliRunner.run(
                "tune",
                "--istio",
                MeshLogReplayTest.RULE,
                "--hosts",
                "4",
                "--seeds",
                "2",
                "--from-log",
                dir + "cart-5c6b4-klmno.log",
                "--from-log",
                dir + "checkout-7d9f8-abcde.log",
                "--from-log",
                dir + "checkout-7d9f8-fghij.log");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out().lines().findFirst().orElse("")).startsWith("tune: 4 hosts, 12 rps, 3 callers, target istio");
        assertThat(o.out())
                .contains("1,080 requests over 90 s, 12 rps to 4 hosts (3 rps a host) from 3 callers")
                .doesNotContain("600 rps", "the rate given is used");
    }

    @Test
    void theHostsComeFromTheLogsWithoutHosts() {
        String dir = MeshLogReplayTest.DIR;
        CliRunner.Outcome o = CliRunner.run(
                "tune",
                "--istio",
                MeshLogReplayTest.RULE,
                "--subset",
                "v2",
                "--seeds",
                "1",
                "--suite",
                "../docs/examples/tune-suite.yaml",
                "--from-log",
                dir + "cart-5c6b4-klmno.log",
                "--from-log",
                dir + "checkout-7d9f8-abcde.log");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out().lines().findFirst().orElse("")).startsWith("tune: 4 hosts, 8 rps, 2 callers, target istio");
        assertThat(o.out()).contains("Current settings (" + MeshLogReplayTest.RULE + "): consecutive5xxErrors=3 ");
    }
}
