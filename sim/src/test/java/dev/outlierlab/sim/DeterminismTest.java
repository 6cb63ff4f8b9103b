package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The same scenario gives the same result, bit for bit; the seed is the only source of variation. */
class DeterminismTest {

    /** Uses every random draw the detector takes: enforcement percentages between 0 and 100, and jitter. */
    private static Scenario randomised(long seed) {
        return Scenario.builder()
                .name("determinism")
                .durationNanos(300 * S)
                .seed(seed)
                .cluster(ClusterSpec.ofCount(8, 50))
                .traffic(new TrafficSpec(800))
                .faults(List.of(
                        FaultSpec.builder()
                                .hosts(List.of("host-0", "host-1"))
                                .window(20 * S, 200 * S)
                                .errorRatePpm(400_000)
                                .build(),
                        FaultSpec.builder()
                                .hosts(List.of("host-5"))
                                .window(50 * S, 250 * S)
                                .errorRatePpm(1_000_000)
                                .status(500)
                                .failsHealthCheck(true)
                                .build()))
                .outlierDetection(config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        40,
                        OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
                        60,
                        OutlierSetting.ENFORCING_SUCCESS_RATE,
                        70,
                        OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE,
                        50,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        30,
                        OutlierSetting.MAX_EJECTION_TIME_JITTER,
                        7 * S))
                .healthChecks(new HealthCheckSpec(7 * S, 2, 2))
                .build();
    }

    private static void assertSame(RunResult a, RunResult b) {
        assertThat(b.events()).isEqualTo(a.events());
        assertThat(b.summary()).isEqualTo(a.summary());
        assertThat(b.stats()).isEqualTo(a.stats());
        assertThat(b.intervals()).isEqualTo(a.intervals());
        assertThat(b.panicWindows()).isEqualTo(a.panicWindows());
        assertThat(b.series().stepNanos()).isEqualTo(a.series().stepNanos());
        assertThat(b.series().requests()).isEqualTo(a.series().requests());
        assertThat(b.series().failed()).isEqualTo(a.series().failed());
        assertThat(b.series().maxEjected()).isEqualTo(a.series().maxEjected());
        assertThat(b.series().panicNanos()).isEqualTo(a.series().panicNanos());
    }

    @Test
    void theSameScenarioTwiceGivesTheSameResult() {
        RunResult a = Simulation.run(randomised(42), RunOptions.CHARTS);
        RunResult b = Simulation.run(randomised(42), RunOptions.CHARTS);
        assertThat(a.events()).isNotEmpty();
        assertThat(a.events())
                .anySatisfy(e -> assertThat(e.ejection() != null && e.ejection().jitterNanos() > 0)
                        .isTrue());
        assertThat(a.events())
                .anySatisfy(e -> assertThat(
                                e.enforcement() != null && e.enforcement().drawMod100() >= 0)
                        .isTrue());
        assertSame(a, b);
    }

    @Test
    void theSeedDefaultsTwice() {
        assertSame(Simulation.run(Scenario.defaults()), Simulation.run(Scenario.defaults()));
    }

    @Test
    void anotherSeedDrawsOtherJitter() {
        List<Long> jitter42 = Simulation.run(randomised(42)).events().stream()
                .filter(e -> e.ejection() != null)
                .map(e -> e.ejection().jitterNanos())
                .toList();
        List<Long> jitter43 = Simulation.run(randomised(43)).events().stream()
                .filter(e -> e.ejection() != null)
                .map(e -> e.ejection().jitterNanos())
                .toList();
        assertThat(jitter42).isNotEqualTo(jitter43);
    }

    @Test
    void aTraceReplayIsDeterministicToo() {
        Scenario s = randomised(9);
        List<TraceRecord> trace = new ArrayList<>();
        // 100 records a second for 200 s, round robin over 8 hosts; host 3 fails a third of its requests, enough
        // volume (125 a host per interval) for success rate to find it
        for (int i = 0; i < 20_000; i++) {
            int host = i % 8;
            int code = host == 3 && i % 3 == 0 ? 503 : 200;
            trace.add(new TraceRecord(i * 10_000_000L, host, code, null, i + 1));
        }
        RunResult a = TraceReplay.run(s, trace.iterator(), RunOptions.CHARTS);
        RunResult b = TraceReplay.run(s, trace.iterator(), RunOptions.CHARTS);
        assertThat(a.events()).extracting(OutlierEvent::host).isNotEmpty();
        assertSame(a, b);
    }
}
