package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The work limit's estimate ({@link Tuner#plannedUnits}) against the runs a search really makes: counted run by run
 * (each run's {@link TuneRuns#units}), the runs made plus those taken from another candidate's ({@link RunSharing})
 * plus the breaking points' probes never exceed the estimate and come close to it (the plan counts the most
 * candidates each step can keep), and the runs actually simulated are fewer still, by what sharing spared.
 */
class PlannedWorkTest {
    @Test
    void theEstimateCountsTheRunsTheSearchMakes() {
        TuneRequest req = EnvoyRequests.fromFlags(4, 80L, 3, 1);
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
        long planned = Tuner.plannedUnits(req);
        long probes = 0;
        for (SuiteScenario p : BreakingPoints.probes(req)) {
            probes += TuneRuns.units(new TuneRuns.Job(p, p.scenario()));
        }
        long everyRun = reported.get() + BreakingPoints.SEEDS.length * probes;
        System.out.printf(
                "planned %,d units; every run (shared ones too) %,d; simulated %,d in %d runs%n",
                planned, everyRun, made.get(), madeRuns.get());
        assertThat(everyRun).isLessThanOrEqualTo(planned).isGreaterThan(planned * 7 / 10);
        assertThat(made.get()).isLessThan(everyRun);
        assertThat(result.runs()).isEqualTo(madeRuns.get());
    }
}
