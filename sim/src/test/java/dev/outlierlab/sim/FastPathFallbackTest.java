package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which runs the event-driven path takes, and why the others go request by request. */
class FastPathFallbackTest {
    private final Scenario base = Scenario.defaults();

    @Test
    void theLabModelsScenarioTakesTheFastPath() {
        assertThat(FastPath.fallbackReasons(base, RunOptions.DEFAULT)).isEmpty();
        assertThat(FastPath.run(base, RunOptions.DEFAULT).summary())
                .isEqualTo(Simulation.run(base, RunOptions.DEFAULT.forcePerRequest())
                        .summary());
    }

    @Test
    void eachFeatureItDoesNotModelIsNamed() {
        assertThat(FastPath.fallbackReasons(base, RunOptions.DEFAULT.forcePerRequest()))
                .containsExactly("the per-request path was asked for");
        FaultSpec degraded = FaultSpec.builder()
                .hosts(List.of("host-1"))
                .window(0, base.durationNanos())
                .errorRatePpm(100_000)
                .degraded(true)
                .build();
        Scenario withDegraded =
                base.toBuilder().faults(List.of(base.faults().get(0), degraded)).build();
        assertThat(FastPath.fallbackReasons(withDegraded, RunOptions.DEFAULT))
                .containsExactly("degraded hosts (faults of kind: degraded)");
        LoadSpec shaped =
                new LoadSpec(Map.of("host-0", 90L), 503, null, Map.of("host-1", 2L), Arrivals.POISSON, List.of());
        Scenario loaded = base.toBuilder().load(shaped).build();
        assertThat(FastPath.fallbackReasons(loaded, RunOptions.DEFAULT))
                .containsExactly("load-balancing weights (cluster.weights)", "Poisson arrivals (traffic.arrivals)");
        assertThatThrownBy(() -> FastPath.run(loaded, RunOptions.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("load-balancing weights");
    }
}
