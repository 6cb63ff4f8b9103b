package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster with fewer hosts than {@code success_rate_minimum_hosts}: {@code check} and {@code run} on the same file
 * give the same fix, the one that makes the cluster eject.
 */
class TooFewHostsRunAndCheckTest {
    @TempDir
    Path dir;

    /** docs/examples/search-cluster.yaml with its last two hosts removed (4 hosts), {@code extra} in its outlier block. */
    private Path fourHosts(String extra) throws IOException {
        Path p = dir.resolve("four.yaml");
        Files.writeString(
                p,
                Files.readString(Path.of("../docs/examples/search-cluster.yaml"))
                        .replaceAll("(?m)^.*address: 10\\.0\\.1\\.1[45],.*\\n", "")
                        .replace("  base_ejection_time: 30s\n", "  base_ejection_time: 30s\n" + extra));
        return p;
    }

    @Test
    void atFactorOnePointNineBothEnableFailurePercentageAndSayWhyTheMinimumIsNotEnough() throws IOException {
        // one host among 4 is at most sqrt(3) = 1.73 deviations below the mean: success rate at 1.9 never ejects there
        String file = fourHosts("").toString();
        CliRunner.Outcome check = CliRunner.run("check", file);
        assertThat(check.out())
                .contains("4 hosts in the file")
                .contains("enforcing_failure_percentage: 100   # success rate cannot eject among 4 hosts at factor"
                        + " 1.9, so lowering success_rate_minimum_hosts to 4 is not enough")
                .contains("failure_percentage_minimum_hosts: 4");
        CliRunner.Outcome run = CliRunner.run("run", "--envoy", file);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out().replaceAll("\\s+", " "))
                .contains("success_rate never runs (4 hosts < success_rate_minimum_hosts 5)")
                .contains("fix enforcing_failure_percentage 100 and failure_percentage_minimum_hosts 4 (success rate"
                        + " cannot eject among 4 hosts at factor 1.9, so lowering success_rate_minimum_hosts to 4 is"
                        + " not enough)")
                .doesNotContain("fix success_rate_minimum_hosts 4");
    }

    @Test
    void atFactorOneBothLowerTheMinimum() throws IOException {
        // at factor 1.0 three hosts can already give an outlier: lowering the minimum to 4 is the fix for both
        String file = fourHosts("  success_rate_stdev_factor: 1000\n").toString();
        CliRunner.Outcome check = CliRunner.run("check", file);
        assertThat(check.out())
                .contains("success_rate_minimum_hosts: 4   # with so few hosts, one bad host moves the mean a lot")
                .doesNotContain("success rate cannot eject among");
        CliRunner.Outcome run = CliRunner.run("run", "--envoy", file);
        assertThat(run.out().replaceAll("\\s+", " "))
                .contains("fix success_rate_minimum_hosts 4 (with so few hosts, one bad host moves the mean a lot)");
    }
}
