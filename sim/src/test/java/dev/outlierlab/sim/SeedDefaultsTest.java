package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeedDefaultsTest {
    @Test
    void defaultsDetectTwentyOneTimesAndTheCapRefusesAll() {
        RunResult r = Simulation.run(Scenario.defaults());
        assertThat(r.summary().requests()).isEqualTo(180_000);
        assertThat(r.summary().failed()).isEqualTo(6_930);
        assertThat(r.summary().requestsDuringFault()).isEqualTo(126_000);
        assertThat(r.summary().failedPercentDuringFault()).isEqualTo(5.5);
        assertThat(r.summary().ejectionsDetected()).isEqualTo(21);
        assertThat(r.summary().ejectionsOverflow()).isEqualTo(21);
        assertThat(r.summary().ejectionsEnforced()).isZero();
        assertThat(r.events()).extracting(OutlierEvent::timeNanos).first().isEqualTo(40_000_000_000L);
    }

    @Test
    void capOf34EjectsThreeTimes() {
        Scenario s = Scenario.defaults();
        s = s.withOutlierDetection(s.outlierDetection().toBuilder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                .build());
        RunResult r = Simulation.run(s);
        List<OutlierEvent> ejects =
                r.events().stream().filter(e -> e.action() == EventAction.EJECT).toList();
        List<OutlierEvent> returns = r.events().stream()
                .filter(e -> e.action() == EventAction.UNEJECT)
                .toList();
        assertThat(ejects)
                .extracting(OutlierEvent::timeNanos)
                .containsExactly(40_000_000_000L, 80_000_000_000L, 150_000_000_000L);
        assertThat(returns)
                .extracting(OutlierEvent::timeNanos)
                .containsExactly(70_000_000_000L, 140_000_000_000L, 240_000_000_000L);
        assertThat(r.summary().failedDuringFault()).isEqualTo(990);
    }
}
