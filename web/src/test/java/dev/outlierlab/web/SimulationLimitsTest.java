package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulationLimitsTest {
    private static Scenario scenario(String json) {
        return ScenarioReader.read(json, "test", List.of()).scenario();
    }

    @Test
    void theBoundHoldsForTheSeedsComparisons() {
        for (String json : List.of(
                "{}",
                "{\"faults\": [{\"hosts\": 1, \"start\": \"30s\", \"end\": \"240s\", \"error_rate\": 100}],"
                        + " \"outlier_detection\": {\"max_ejection_percent\": 34, \"enforcing_success_rate\": 0}}",
                "{\"faults\": [{\"hosts\": 4, \"start\": \"30s\", \"end\": \"240s\", \"error_rate\": 100}],"
                        + " \"outlier_detection\": {\"max_ejection_percent\": 100, \"enforcing_success_rate\": 0}}",
                "{\"faults\": [{\"hosts\": 1, \"error_rate\": 100}], \"outlier_detection\": {\"consecutive_5xx\": 1}}")) {
            Scenario s = scenario(json);
            assertThat((long) Simulation.run(s, RunOptions.DEFAULT).events().size())
                    .as(json)
                    .isLessThanOrEqualTo(SimulationLimits.decisionBound(s));
        }
    }

    @Test
    void partialFailureAtHighTrafficIsNotRefused() {
        // At 33 % a host never fails twice in a row, so consecutive detectors cannot fire however many requests.
        SimulationLimits.DEFAULT.check(scenario("{\"traffic\": {\"rps\": 60000}}"));
        assertThatThrownBy(() -> SimulationLimits.DEFAULT.check(
                        scenario("{\"traffic\": {\"rps\": 60000}, \"faults\": [{\"hosts\": 1, \"error_rate\": 100}]}")))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("detector decisions");
    }
}
