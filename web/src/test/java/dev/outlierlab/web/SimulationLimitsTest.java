package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimulationLimitsTest {
    private static Scenario scenario(String json) {
        return ScenarioReader.read(json, "test", List.of()).scenario();
    }

    @Test
    void longestRunOfTheEvenPatternIsExact() {
        assertThat(SimulationLimits.longestRun(0)).isZero();
        assertThat(SimulationLimits.longestRun(330_000)).isEqualTo(1);
        assertThat(SimulationLimits.longestRun(500_000)).isEqualTo(1);
        assertThat(SimulationLimits.longestRun(700_000)).isEqualTo(3);
        assertThat(SimulationLimits.longestRun(750_000)).isEqualTo(3);
        assertThat(SimulationLimits.longestRun(800_000)).isEqualTo(4);
        assertThat(SimulationLimits.longestRun(1_000_000)).isEqualTo(Long.MAX_VALUE);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200; i++) {
            long ppm = random.nextLong(1, 999_000);
            FaultSpec f = new FaultSpec(List.of("h"), 0, 1, ppm, 503, null, false);
            long run = 0;
            long longest = 0;
            for (long k = 0; k < 2_000_000; k++) {
                run = f.fails(k) ? run + 1 : 0;
                longest = Math.max(longest, run);
            }
            assertThat(longest).as("ppm %d", ppm).isEqualTo(SimulationLimits.longestRun(ppm));
        }
    }

    @Test
    void theBoundHoldsForTheSeedsComparisons() {
        for (String json : List.of("{}",
                "{\"faults\": [{\"hosts\": 1, \"start\": \"30s\", \"end\": \"240s\", \"error_rate\": 100}],"
                        + " \"outlier_detection\": {\"max_ejection_percent\": 34, \"enforcing_success_rate\": 0}}",
                "{\"faults\": [{\"hosts\": 4, \"start\": \"30s\", \"end\": \"240s\", \"error_rate\": 100}],"
                        + " \"outlier_detection\": {\"max_ejection_percent\": 100, \"enforcing_success_rate\": 0}}",
                "{\"faults\": [{\"hosts\": 1, \"error_rate\": 100}], \"outlier_detection\": {\"consecutive_5xx\": 1}}")) {
            Scenario s = scenario(json);
            assertThat((long) Simulation.run(s, RunOptions.DEFAULT).events().size()).as(json)
                    .isLessThanOrEqualTo(SimulationLimits.decisionBound(s));
        }
    }

    @Test
    void partialFailureAtHighTrafficIsNotRefused() {
        // At 33 % a host never fails twice in a row, so consecutive detectors cannot fire however many requests.
        SimulationLimits.DEFAULT.check(scenario("{\"traffic\": {\"rps\": 60000}}"));
        assertThatThrownBy(() -> SimulationLimits.DEFAULT.check(scenario(
                "{\"traffic\": {\"rps\": 60000}, \"faults\": [{\"hosts\": 1, \"error_rate\": 100}]}")))
                .isInstanceOf(ApiException.class).hasMessageContaining("detector decisions");
    }
}
