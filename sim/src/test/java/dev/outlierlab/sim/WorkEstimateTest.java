package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.sim.scenario.Scenario;
import org.junit.jupiter.api.Test;

/** The work estimate of each simulation path, in request-equivalents, on the lab's default scenario. */
class WorkEstimateTest {
    private final Scenario base = Scenario.defaults();

    @Test
    void thePerRequestPathCountsEveryRequestAndEachHostEvaluationAtTen() {
        WorkEstimate w = WorkEstimate.ofRun(base, RunOptions.DEFAULT.forcePerRequest(), false);
        // 300 s at 600 rps; host-0's fault from 30 s to 240 s takes a sixth of 126,000 requests; 30 ticks x 6 hosts
        assertThat(w).isEqualTo(new WorkEstimate(180_000, 21_000, 180, 0));
        assertThat(w.units()).isEqualTo(180_000 + 21_000 + 1_800);
        assertThat(WorkEstimate.ofRun(base, RunOptions.DEFAULT, true)).isEqualTo(w);
    }

    @Test
    void theEventDrivenPathWalksOnlyTheFaultsRequestsAndPaysForEachSecondOfEachCaller() {
        WorkEstimate w = WorkEstimate.ofRun(base, RunOptions.DEFAULT, false);
        // 180,000 - 21,000 counted; 180 tick evaluations plus 301 one-second steps of the one caller
        assertThat(w).isEqualTo(new WorkEstimate(180_000, 21_000, 481, 159_000));
        assertThat(w.units()).isEqualTo(21_000 + 21_000 + 4_810);
        // a sum keeps what was counted
        assertThat(w.plus(w).countedRequests()).isEqualTo(318_000);
    }
}
