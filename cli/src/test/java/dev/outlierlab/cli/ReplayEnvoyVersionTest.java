package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code replay --envoy-version}: the release's rules apply to the replayed detector as they do to {@code run}'s. On
 * the search log (3 hosts, Envoy's default cap of 10 %), Envoy 1.26 ejects the first host anyway; from 1.28 the cap
 * admits no host of 3 and every detection is refused.
 */
class ReplayEnvoyVersionTest {
    private static final String LOG = "../docs/examples/replay/search-access.log";

    @Test
    void theReleaseDecidesWhetherTheCapAdmitsTheFirstEjection() {
        CliRunner.Outcome old = CliRunner.run("replay", LOG, "--envoy-version", "1.26", "--events", "2");
        assertThat(old.exit()).as(old.err()).isZero();
        assertThat(old.out())
                .contains("(60 s, Envoy 1.26's rules)")
                .contains("verdict       1 ejection (first: 10.0.0.1:80 at 5.004 s by consecutive_5xx); the cap"
                        + " refused 2 more (max_ejection_percent 10)");
        CliRunner.Outcome now = CliRunner.run("replay", LOG, "--envoy-version", "1.40", "--events", "2");
        assertThat(now.out())
                .contains("verdict       4 detections but no ejection: max_ejection_percent 10 admits no host of 3")
                .doesNotContain("Envoy 1.26's rules");
        // without the option: the newest release, as run
        assertThat(CliRunner.run("replay", LOG, "--events", "2").out()).isEqualTo(now.out());
        // --compare-set inherits it (the settings written for 1.26 leave out the fields 1.26 does not have)
        CliRunner.Outcome compared = CliRunner.run(
                "replay",
                LOG,
                "--envoy-version",
                "1.26",
                "--compare-set",
                "outlier_detection.max_ejection_percent=34",
                "--events",
                "2");
        assertThat(compared.exit()).as(compared.err()).isZero();
        assertThat(compared.out())
                .contains("Envoy 1.26's rules")
                .contains("B: those with outlier_detection.max_ejection_percent=34");
    }

    @Test
    void aReleaseOutOfRangeIsRefusedAsRunRefusesIt() {
        CliRunner.Outcome replay = CliRunner.run("replay", LOG, "--envoy-version", "1.20");
        CliRunner.Outcome run = CliRunner.run("run", "--example", "overload-cap-100", "--envoy-version", "1.20");
        assertThat(replay.exit()).isEqualTo(2);
        assertThat(replay.out()).isEmpty();
        assertThat(replay.err()).isEqualTo(run.err()).startsWith("outlier-lab: --envoy-version");
    }
}
