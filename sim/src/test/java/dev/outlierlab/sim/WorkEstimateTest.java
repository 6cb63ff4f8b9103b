package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
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
    void theEventDrivenPathCountsEveryRequestAndPaysForDrawsFailuresAndEachSecondOfEachCaller() {
        WorkEstimate w = WorkEstimate.ofRun(base, RunOptions.DEFAULT, false);
        // host-0's even fault: every request is counted, none walked; its 21,000 requests cost a draw each (an
        // eighth) and its 6,930 failures (33 %) ten each; 180 tick evaluations plus 301 one-second steps
        assertThat(w).isEqualTo(new WorkEstimate(180_000, 2_625 + 69_300, 481, 180_000));
        assertThat(w.units()).isEqualTo(71_925 + 4_810);
        assertThat(w).isEqualTo(WorkEstimate.ofEventDriven(base));
        // a sum keeps what was counted
        assertThat(w.plus(w).countedRequests()).isEqualTo(360_000);
    }

    @Test
    void aFailureCostsMoreWithManyCallers() {
        assertThat(WorkEstimate.unitsPerPlannedFailure(1)).isEqualTo(10);
        assertThat(WorkEstimate.unitsPerPlannedFailure(2)).isEqualTo(11);
        assertThat(WorkEstimate.unitsPerPlannedFailure(50)).isEqualTo(16);
    }

    @Test
    void whereMostRequestsFailThePerRequestPathIsTakenAsTheCheaper() {
        // a shared outage failing 40 % of every host's requests, 50 callers: a failure planned costs 16, a request
        // walked 2 (itself and its fault step)
        Scenario outage = base.toBuilder()
                .traffic(new TrafficSpec(5_000, 50))
                .faults(List.of(FaultSpec.builder()
                        .hosts(base.cluster().hosts())
                        .window(0, base.durationNanos())
                        .errorRatePpm(400_000)
                        .status(503)
                        .pattern(FaultPattern.RANDOM)
                        .build()))
                .build();
        WorkEstimate walked = WorkEstimate.of(outage);
        assertThat(walked).isEqualTo(new WorkEstimate(1_500_000, 1_500_000, 9_000, 0));
        assertThat(WorkEstimate.ofEventDriven(outage).units()).isGreaterThan(walked.units());
        assertThat(WorkEstimate.ofRun(outage, RunOptions.DEFAULT, false)).isEqualTo(walked);
        assertThat(Simulation.eventDrivenIsCheaper(outage)).isFalse();
        assertThat(Simulation.eventDrivenIsCheaper(base)).isTrue();
    }
}
