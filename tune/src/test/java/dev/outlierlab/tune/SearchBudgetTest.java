package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The work limit's decisions ({@link SearchBudget}) on searches as {@code tune} makes them (the built-in suite, 2
 * threads): a small search runs at once on the bound, 200 hosts at 20,000 rps too, issue 38's search of 50 callers
 * starts with its pilot and goes on after it (on the pilot's counts as {@code dev.outlierlab.bench.TuneRate} recorded
 * them: the 8-minute search is not made here), and an absurd one is refused before any run. Counted, never timed: the
 * same request always gets the same decision.
 */
class SearchBudgetTest {
    /**
     * The pilot's estimate of {@code tune --hosts 50 --rps 50000 --clients 50} (8 seeds, 2 threads) before its scale,
     * counts of each {@link RunCost.Kind} in their order, as {@code TuneRate many-callers} printed them (2026-12-06
     * 08:13 to 08:55 UTC, C1; printed with the 120 % of the time, divided by it here): the whole search then took
     * {@link #MANY_CALLERS_CPU_SECONDS} of its worker threads' CPU (507.2 s of the process's), 2,191 runs.
     */
    static final double[] MANY_CALLERS_PILOT = {
        6_687_333_333.0, 12_376_236_667.0, 0, 1_289_575_026, 191_286_667, 606_000_000, 0, 0, 2_581
    };

    /** The worker threads' CPU seconds of that search, both threads together. */
    static final double MANY_CALLERS_CPU_SECONDS = 492.2;

    /** The pilot's estimate of that search as it is made now: its counts times the scale. */
    static RunCost manyCallersPilot() {
        return RunCost.of(MANY_CALLERS_PILOT).times(SearchPilot.SCALE_PERCENT / 100.0);
    }

    static TuneRequest request(int hosts, long rps, int clients, int seeds) {
        return RefusedRunsTest.request("envoy", hosts, rps, clients, seeds);
    }

    @Test
    void smallSearchesRunAtOnceOnTheBound() {
        assertThat(new SearchBudget(request(6, 600, 1, 8)).beforeRunning().verdict())
                .isEqualTo(SearchBudget.Verdict.RUN);
        SearchBudget.Decision fleet = new SearchBudget(request(200, 20_000, 1, 8)).beforeRunning();
        assertThat(fleet.verdict()).isEqualTo(SearchBudget.Verdict.RUN);
        assertThat(fleet.secondsAThread()).isBetween(30.0, 300.0);
    }

    @Test
    void theManyCallerSearchGoesOnAfterItsPilot() {
        SearchBudget budget = new SearchBudget(request(50, 50_000, 50, 8));
        SearchBudget.Decision before = budget.beforeRunning();
        assertThat(before.verdict()).isEqualTo(SearchBudget.Verdict.PILOT);
        SearchBudget.Decision after =
                budget.afterPilot(new SearchPilot.Estimate(manyCallersPilot(), 222, RunCost.NONE, 42, 112));
        assertThat(after.verdict()).isEqualTo(SearchBudget.Verdict.GO_ON);
        // within the target of 0.7 to 1.6 times the CPU the search took, a thread
        assertThat(after.secondsAThread())
                .isBetween(0.7 * MANY_CALLERS_CPU_SECONDS / 2, 1.6 * MANY_CALLERS_CPU_SECONDS / 2);
        // the same counts always give the same decision
        assertThat(budget.afterPilot(new SearchPilot.Estimate(manyCallersPilot(), 222, RunCost.NONE, 42, 112)))
                .isEqualTo(after);
    }

    @Test
    void anAbsurdSearchIsRefusedBeforeAnyRun() {
        SearchBudget.Decision d = new SearchBudget(request(200, 10_000_000, 50, 20)).beforeRunning();
        assertThat(d.verdict()).isEqualTo(SearchBudget.Verdict.REFUSED);
        assertThat(d.secondsAThread()).isGreaterThan(3_600);
        assertThat(d.counted())
                .contains("failures reported one by one", "each at its measured CPU cost")
                .doesNotContain("duration");
    }
}
