package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The "breaks when" figures agree with runs of those conditions, made here through {@link Simulation} directly: each
 * stated frequency (the figure and the step short of it on the outage and partial failure scales) is the count of
 * those runs on the seeds the line names (1 to 3, and 11 to 27 at the edges); the step short of the outage ejects in
 * none, the stated partial failure is caught in all. The runs made are exactly the runs the tallies state, plus
 * detection off where a figure's cost is measured.
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

    /** The seeds a tally of {@code runs} runs was made on: 1 to 3, and the edge seeds when it is an edge. */
    private static long[] seedsOf(ProbeTally t) {
        long[] base = BreakingPoints.SEEDS;
        if (t.runs() == base.length) {
            return base;
        }
        long[] all = Arrays.copyOf(base, base.length + BreakingPoints.EDGE_SEEDS.length);
        System.arraycopy(BreakingPoints.EDGE_SEEDS, 0, all, base.length, BreakingPoints.EDGE_SEEDS.length);
        assertThat(t.runs()).isEqualTo(all.length);
        return all;
    }

    private static int ejecting(SuiteScenario p, Target.Written w, ProbeTally t) {
        int n = 0;
        for (long seed : seedsOf(t)) {
            if (Simulation.run(probe(p, w, seed), RunOptions.DEFAULT).summary().ejectionsEnforced() > 0) {
                n++;
            }
        }
        return n;
    }

    private static int caught(SuiteScenario p, Target.Written w, ProbeTally t) {
        int n = 0;
        for (long seed : seedsOf(t)) {
            if (BreakingPoints.caught(TuneRuns.figures(new TuneRuns.Job(p, probe(p, w, seed))))) {
                n++;
            }
        }
        return n;
    }

    private static ProbeTally below(List<ProbeTally> tallies, long level) {
        ProbeTally out = null;
        for (ProbeTally t : tallies) {
            if (t.level() < level) {
                out = t;
            }
        }
        return out;
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
        // each scale stops at its answer: the outages and partial failures past it are not run; the runs made are the
        // tallies' runs (3 a condition walked, 20 at an edge) and detection off at up to 3 runs that ejected a figure
        List<ProbeTally> all = new ArrayList<>(b.outageRuns());
        all.addAll(b.noiseRuns());
        all.addAll(b.partialRuns());
        int offRuns = Math.min(
                        3,
                        ProbeTally.at(b.outageRuns(), b.sharedOutagePercent()).hits())
                + (b.noisePpm() < 0
                        ? 0
                        : Math.min(3, ProbeTally.at(b.noiseRuns(), b.noisePpm()).hits()));
        assertThat(made[0]).isEqualTo(all.stream().mapToInt(ProbeTally::runs).sum() + offRuns);
        assertThat(b.outageRuns().get(b.outageRuns().size() - 1).level()).isEqualTo(b.sharedOutagePercent());
        assertThat(b.partialRuns().get(b.partialRuns().size() - 1).level()).isEqualTo(b.caughtPercent());
        assertThat(all.size()).isLessThan(BreakingPoints.probes(req).size());
        assertThat(b.sharedOutagePercent()).isBetween(30, 80);
        assertThat(b.caughtPercent()).isBetween(30, 40);
        // the stated frequencies, rerun: the outage figure and the step short of it (none of its 20 runs ejects)
        DefaultSuite suite = new DefaultSuite(6, 300, 1, 0);
        ProbeTally outage = ProbeTally.at(b.outageRuns(), b.sharedOutagePercent());
        ProbeTally calm = below(b.outageRuns(), b.sharedOutagePercent());
        assertThat(outage.hits()).isPositive();
        assertThat(ejecting(suite.sharedOutage(b.sharedOutagePercent()), w, outage))
                .isEqualTo(outage.hits());
        assertThat(calm.runs()).isEqualTo(20);
        assertThat(calm.hits()).isZero();
        assertThat(ejecting(suite.sharedOutage((int) calm.level()), w, calm)).isZero();
        // the partial failure caught in all 20 of its runs, the step short of it missed in some
        ProbeTally partial = ProbeTally.at(b.partialRuns(), b.caughtPercent());
        ProbeTally missed = below(b.partialRuns(), b.caughtPercent());
        assertThat(partial.runs()).isEqualTo(20);
        assertThat(caught(suite.partial(b.caughtPercent()), w, partial)).isEqualTo(20);
        assertThat(missed.hits()).isLessThan(missed.runs());
        assertThat(caught(suite.partial((int) missed.level()), w, missed)).isEqualTo(missed.hits());
        assertThat(b.words())
                .startsWith("Breaks when: a shared outage of " + b.sharedOutagePercent() + " % ")
                .contains("eject healthy hosts " + outage.frequency() + " (at " + calm.level() + " %: in none of 20)")
                .contains("catches one host failing " + b.caughtPercent()
                        + " % of its requests or more in 20 of 20 runs" + " (at " + missed.level() + " %: "
                        + missed.frequency().replace(" runs", "") + ")")
                .endsWith("(runs of 300 s on seeds 1 to 3, each edge on 11 to 27 too; 10 to 80 % outages, 0.5 to 12 %"
                        + " noise, 5 to 100 % partial failures).");
    }
}
