package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepPlanTest {
    @Test
    void everyCombinationIsReadBeforeAnyRunTheLastAxisFastest() {
        List<SweepPlan.Axis> axes = SweepPlan.axes(
                List.of("outlier_detection.max_ejection_percent=10,34", "cluster.hosts=3,6,10"), null, 500);
        List<SweepPlan.Planned> planned =
                SweepPlan.plan(axes, List.of("duration=60s"), ScenarioReader::defaultsProfiled);
        assertThat(planned).hasSize(6);
        assertThat(planned.get(1).values()).containsExactly("10", "6");
        assertThat(planned.get(5).sets())
                .containsExactly("duration=60s", "outlier_detection.max_ejection_percent=34", "cluster.hosts=10");
        assertThat(planned.get(5).scenario().envoy().scenario().cluster().hosts())
                .hasSize(10);
        assertThat(planned.get(5).scenario().envoy().scenario().durationNanos()).isEqualTo(60_000_000_000L);
    }

    @Test
    void badAxesAreOneMessageEach() {
        assertThatThrownBy(() -> SweepPlan.axes(List.of("cluster.hosts"), null, 500))
                .hasMessageStartingWith("--vary cluster.hosts: expected KEY=V1,V2,...");
        assertThatThrownBy(() -> SweepPlan.axes(List.of("cluster.hosts=3,,6"), null, 500))
                .hasMessage("--vary cluster.hosts=3,,6: a value is empty; separate values with single commas");
        assertThatThrownBy(() -> SweepPlan.axes(List.of("seed=1,2,3", "cluster.hosts=3,4"), null, 5))
                .hasMessage("--vary: 6+ combinations; at most 5 runs");
        assertThatThrownBy(() -> SweepPlan.axes(List.of("grpc.interval=1s,2s"), Path.of("sc.json"), 500))
                .hasMessageStartingWith("--vary grpc.interval: --service-config sc.json fixes gRPC's settings");
    }
}
