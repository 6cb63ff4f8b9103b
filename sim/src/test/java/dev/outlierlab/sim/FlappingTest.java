package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.signals.Flapping;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Flapping: ejected again sooner than a return by time allows, at least three times in a row. */
class FlappingTest {
    private static final long S = Scenarios.S;

    @Test
    void healthChecksReturningAPartiallyFailingHostMakeItFlapWhileTheirOwnViewStaysFlat() {
        RunResult r = Simulation.run(Scenarios.scenario(
                6,
                50,
                600,
                300 * S,
                List.of(Scenarios.fault(1, 30 * S, 240 * S, 330_000, 503)),
                Scenarios.config(OutlierSetting.MAX_EJECTION_PERCENT, 34L),
                new HealthCheckSpec(7 * S, 3, 2)));
        List<Flapping.Episode> episodes = Flapping.find(r.events(), r.signals());
        assertThat(episodes).hasSize(1);
        Flapping.Episode e = episodes.get(0);
        assertThat(e.host()).isEqualTo("host-0");
        // probes at 0 s, then after no_traffic_interval (60 s, no request had been sent at 0 s), then every 7 s:
        // the ejection at 40 s lasts until the probe at 60 s; from the 70 s tick host-0 is ejected at every tick
        // and returned by the next probe (74, 81, 95, ...): 18 ejections from 70 s to 240 s
        assertThat(e.ejections()).isEqualTo(18);
        assertThat(e.firstNanos()).isEqualTo(70 * S);
        assertThat(e.lastNanos()).isEqualTo(240 * S);
        assertThat(e.perMinute()).isEqualTo(6.0);
        assertThat(e.returnsByHealthCheck()).isEqualTo(18);
        assertThat(e.returnsByTime()).isZero();
        assertThat(e.healthChecksFlat()).isTrue();
        assertThat(e.membershipHealthyMin()).isEqualTo(5);
    }

    @Test
    void returnsByTimeAloneAreBackoffNotFlapping() {
        RunResult r = Simulation.run(Scenarios.scenario(
                6,
                50,
                600,
                300 * S,
                List.of(Scenarios.fault(1, 30 * S, 240 * S, 330_000, 503)),
                Scenarios.config(OutlierSetting.MAX_EJECTION_PERCENT, 34L),
                null));
        assertThat(Scenarios.times(r, EventAction.EJECT)).hasSize(3);
        assertThat(Flapping.find(r.events(), r.signals())).isEmpty();
    }
}
