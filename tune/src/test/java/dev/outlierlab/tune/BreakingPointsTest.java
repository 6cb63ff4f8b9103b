package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The "breaks when" figures agree with runs of those conditions on seeds 1 to 3 and 11 to 15, made here through {@link
 * Simulation} directly: the stated shared outage makes the setting eject on some seed and the next shallower one on
 * none; the stated partial failure is ejected within a minute on every seed and the next smaller one is missed on
 * some seed. Only the conditions up to each answer are run.
 */
class BreakingPointsTest {
    private static final long S = 1_000_000_000L;

    private static TuneRequest request() {
        List<SuiteScenario> suite = new DefaultSuite(6, 300, 1, 0)
                .scenarios().stream()
                        .filter(s -> s.name().equals("one-host-partial"))
                        .toList();
        return EnvoyRequests.defaults(6, 300, suite).build();
    }

    private static Scenario probe(SuiteScenario p, Target.Written w, long seed) {
        return p.with(seed, w.config(), w.panicThresholdPercent(), EnvoyVersion.DEFAULT);
    }

    private static boolean ejectsOnAnySeed(SuiteScenario p, Target.Written w) {
        for (long seed : new long[] {1, 2, 3, 11, 12, 13, 14, 15}) {
            if (Simulation.run(probe(p, w, seed), RunOptions.DEFAULT).summary().ejectionsEnforced() > 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean caughtOnEverySeed(SuiteScenario p, Target.Written w) {
        for (long seed : new long[] {1, 2, 3, 11, 12, 13, 14, 15}) {
            if (!BreakingPoints.caught(TuneRuns.figures(new TuneRuns.Job(p, probe(p, w, seed))))) {
                return false;
            }
        }
        return true;
    }

    @Test
    void theStatedFiguresAreWhereRunsOfThoseConditionsChange() {
        TuneRequest req = request();
        // failure percentage at 30 % of 50 requests, consecutive 5xx at 10, a cap admitting one host of six
        Setting s = Setting.builder()
                .consecutive5xx(10)
                .successRateStdevFactor(0)
                .successRateRequestVolume(100)
                .successRateMinimumHosts(5)
                .failurePercentageThreshold(30)
                .failurePercentageRequestVolume(50)
                .failurePercentageMinimumHosts(5)
                .intervalNanos(10 * S)
                .baseEjectionTimeNanos(30 * S)
                .maxEjectionPercent(17)
                .build();
        Target.Written w = EnvoyTarget.ENVOY.write(s, "search", 6, req.current(), 50);
        int[] made = {0};
        BreakingPoints b = BreakingPoints.of(req, w, new TuneRuns(1), n -> made[0] += n);
        // each scale stops at its answer: the outages and partial failures past it are not run
        int outages = Arrays.binarySearch(BreakingPoints.DEPTHS, b.sharedOutagePercent()) + 1;
        int partials = Arrays.binarySearch(BreakingPoints.PARTIAL, b.caughtPercent()) + 1;
        int noises = b.noisePpm() < 0
                ? BreakingPoints.NOISE_PPM.length
                : Arrays.binarySearch(BreakingPoints.NOISE_PPM, b.noisePpm()) + 1;
        int offRuns = 1 + (b.noisePpm() < 0 ? 0 : 1);
        // and each figure's edge runs on the edge seeds once when it holds there (here none moves): the step short of
        // the outage, the top noise (none ejects up to it) and the partial failure stated as caught
        assertThat(made[0])
                .isEqualTo((outages + noises + partials + offRuns) * BreakingPoints.SEEDS.length
                        + 3 * BreakingPoints.EDGE_SEEDS.length);
        assertThat(made[0]).isLessThan(BreakingPoints.probes(req).size() * BreakingPoints.SEEDS.length);
        assertThat(b.sharedOutagePercent()).isBetween(30, 80);
        assertThat(b.caughtPercent()).isBetween(30, 40);
        DefaultSuite suite = new DefaultSuite(6, 300, 1, 0);
        assertThat(ejectsOnAnySeed(suite.sharedOutage(b.sharedOutagePercent()), w))
                .isTrue();
        assertThat(ejectsOnAnySeed(suite.sharedOutage(b.sharedOutagePercent() - 10), w))
                .isFalse();
        int i = Arrays.binarySearch(BreakingPoints.PARTIAL, b.caughtPercent());
        assertThat(caughtOnEverySeed(suite.partial(b.caughtPercent()), w)).isTrue();
        assertThat(caughtOnEverySeed(suite.partial(BreakingPoints.PARTIAL[i - 1]), w))
                .isFalse();
        assertThat(b.words())
                .startsWith("Breaks when: a shared outage of " + b.sharedOutagePercent() + " %")
                .contains("catches one host failing " + b.caughtPercent() + " %")
                .endsWith(
                        "(worst of seeds 1 to 3, each edge on 11 to 15 too; 10 to 80 % outages, 0.5 to 12 % noise, 5 to 100 % partial"
                                + " failures).");
    }
}
