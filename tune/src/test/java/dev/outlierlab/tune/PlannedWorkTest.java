package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The work limit's estimate ({@link PlannedWork#units}) against the runs searches really make, counted run by run
 * (each simulated run's {@link TuneRuns#units}): over several tune inputs the runs simulated never exceed the estimate
 * (it counts once only the runs the same-cap rule shares, every other run as made), and the estimate is within a
 * stated factor of them. The progress total ({@link Tuner#plannedUnits}) counts every run, shared ones too, and is at
 * least the estimate.
 */
class PlannedWorkTest {
    /** The estimate is at most this many times the runs simulated on every input below (1.4 to 1.9 when written). */
    static final long FACTOR = 3;

    @Test
    void theEstimateBoundsTheRunsSimulatedWithinAFactor() {
        int[][] inputs = {{4, 80, 3}, {3, 60, 2}, {2, 40, 2}, {6, 120, 2}};
        for (int[] in : inputs) {
            TuneRequest req = EnvoyRequests.fromFlags(in[0], in[1], in[2], 1);
            AtomicLong made = new AtomicLong();
            AtomicLong madeRuns = new AtomicLong();
            TuneRuns local = new TuneRuns(1);
            RunExecutor counting = (jobs, progress) -> {
                for (TuneRuns.Job j : jobs) {
                    made.addAndGet(TuneRuns.units(j));
                }
                madeRuns.addAndGet(jobs.size());
                return local.run(jobs, progress);
            };
            AtomicLong reported = new AtomicLong();
            TuneResult result = Tuner.tune(req, reported::addAndGet, counting);
            long estimate = PlannedWork.units(req);
            long everyRun = Tuner.plannedUnits(req);
            System.out.printf(
                    "tune --hosts %d --rps %d --seeds %d: estimate %,d units, simulated %,d in %d runs (%.2fx), "
                            + "every run counted %,d%n",
                    in[0],
                    in[1],
                    in[2],
                    estimate,
                    made.get(),
                    madeRuns.get(),
                    estimate / (double) made.get(),
                    everyRun);
            assertThat(made.get()).isLessThanOrEqualTo(estimate);
            assertThat(estimate).isLessThanOrEqualTo(FACTOR * made.get());
            assertThat(everyRun).isGreaterThanOrEqualTo(estimate);
            assertThat(result.runs()).isEqualTo(madeRuns.get());
        }
    }

    @Test
    void theProgressTotalCountsEveryRunTheSearchReports() {
        TuneRequest req = EnvoyRequests.fromFlags(4, 80L, 3, 1);
        AtomicLong reported = new AtomicLong();
        Tuner.tune(req, reported::addAndGet, new TuneRuns(1));
        long probes = 0;
        for (SuiteScenario p : BreakingPoints.probes(req)) {
            probes += TuneRuns.units(new TuneRuns.Job(p, p.scenario()));
        }
        long everyRun = reported.get() + BreakingPoints.SEEDS.length * probes;
        long planned = Tuner.plannedUnits(req);
        assertThat(everyRun).isLessThanOrEqualTo(planned).isGreaterThan(planned * 7 / 10);
    }
}
