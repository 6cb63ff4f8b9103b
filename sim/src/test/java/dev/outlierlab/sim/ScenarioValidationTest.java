package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Spec 2: invalid scenarios are rejected before the run, naming the key. */
class ScenarioValidationTest {

    private static String key(Runnable r) {
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, r::run);
        assertThat(e).as("expected an InvalidConfigException").isNotNull();
        assertThat(e.getMessage()).startsWith(e.key() + ":");
        return e.key();
    }

    @Test
    void eachInvalidValueNamesItsKey() {
        assertThat(key(() -> ClusterSpec.ofCount(0, 50))).isEqualTo("cluster.hosts");
        assertThat(key(() -> new ClusterSpec(List.of("a", "a"), 50))).isEqualTo("cluster.hosts");
        assertThat(key(() -> ClusterSpec.ofCount(3, 101))).isEqualTo("cluster.panic_threshold");
        assertThat(key(() -> new TrafficSpec(0))).isEqualTo("traffic.rps");
        assertThat(key(() -> FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(0, S)
                        .errorRatePpm(-1)
                        .build()))
                .isEqualTo("faults[].error_rate");
        assertThat(key(() -> FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(0, S)
                        .errorRatePpm(1_000_001)
                        .build()))
                .isEqualTo("faults[].error_rate");
        assertThat(key(() -> FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(0, S)
                        .errorRatePpm(0)
                        .status(404)
                        .build()))
                .isEqualTo("faults[].status");
        assertThat(key(() -> FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(2 * S, S)
                        .errorRatePpm(0)
                        .build()))
                .isEqualTo("faults[].end");
        assertThat(key(() -> new HealthCheckSpec(0, 1, 1))).isEqualTo("health_checks.interval");
        assertThat(key(() -> Scenario.builder()
                        .name("x")
                        .durationNanos(0)
                        .seed(1)
                        .cluster(ClusterSpec.ofCount(1, 50))
                        .traffic(new TrafficSpec(1))
                        .build()))
                .isEqualTo("duration");
    }

    @Test
    void aFaultOnAnUnknownHostNamesTheFault() {
        InvalidConfigException e = catchThrowableOfType(
                InvalidConfigException.class,
                () -> Scenario.builder()
                        .name("x")
                        .durationNanos(10 * S)
                        .seed(1)
                        .cluster(ClusterSpec.ofCount(2, 50))
                        .traffic(new TrafficSpec(1))
                        .faults(List.of(
                                FaultSpec.builder()
                                        .hosts(List.of("host-0"))
                                        .window(0, S)
                                        .errorRatePpm(0)
                                        .build(),
                                FaultSpec.builder()
                                        .hosts(List.of("host-7"))
                                        .window(0, S)
                                        .errorRatePpm(0)
                                        .build()))
                        .build());
        assertThat(e.key()).isEqualTo("faults[1].hosts");
        assertThat(e.value()).contains("host-7");
    }

    @Test
    void theRequestCountFollowsTheSendTimes() {
        // t_i = floor(i * 1e9 / rps) < duration: 3 rps for 1 s sends i = 0, 1, 2 (at 0, 333333333, 666666666 ns);
        // for 1 s + 1 ns also i = 3 (at exactly 1 s)
        assertThat(new TrafficSpec(3).sendTimeNanos(2)).isEqualTo(666_666_666L);
        assertThat(new TrafficSpec(3).requestsBefore(S)).isEqualTo(3);
        assertThat(new TrafficSpec(3).requestsBefore(S + 1)).isEqualTo(4);
        assertThat(Scenario.defaults().requestCount()).isEqualTo(180_000);
    }
}
