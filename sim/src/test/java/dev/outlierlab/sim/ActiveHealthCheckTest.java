package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.config;
import static dev.outlierlab.sim.Scenarios.of;
import static dev.outlierlab.sim.Scenarios.scenario;
import static dev.outlierlab.sim.Scenarios.times;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Active health checks in the lab: early returns and hosts failed by the check. */
class ActiveHealthCheckTest {
    private static final HealthCheckSpec EVERY_5S = new HealthCheckSpec(5 * S, 1, 1);

    /** host-0 fails every request from 30 s to 240 s, but its health endpoint keeps passing. */
    private static Scenario deadHostPassingChecks(boolean unejectOnCheck, HealthCheckSpec checks) {
        return scenario(6, 50, 600, 300 * S,
                List.of(new FaultSpec(List.of("host-0"), 30 * S, 240 * S, 1_000_000, 500, null, false)),
                config(OutlierSetting.MAX_EJECTION_PERCENT, 34, OutlierSetting.ENFORCING_SUCCESS_RATE, 0,
                        OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST, unejectOnCheck), checks);
    }

    @Test
    void aPassingCheckReturnsTheEjectedHostAtTheNextRound() {
        // ejected at 30.04 s (its fifth request from 30 s, i = 18024); the check at 35 s returns it; its next five
        // requests (i = 21000, 21006, ..., 21024) eject it again at 35.04 s; and so on every 5 s
        RunResult r = Simulation.run(deadHostPassingChecks(true, EVERY_5S));
        List<OutlierEvent> moves = r.events().stream()
                .filter(e -> e.action() == EventAction.EJECT || e.action() == EventAction.UNEJECT).toList();
        assertThat(moves.subList(0, 4)).extracting(OutlierEvent::timeNanos, OutlierEvent::action, OutlierEvent::uneject)
                .containsExactly(
                        tuple(30_040_000_000L, EventAction.EJECT, null),
                        tuple(35_000_000_000L, EventAction.UNEJECT, UnejectReason.ACTIVE_HEALTH_CHECK),
                        tuple(35_040_000_000L, EventAction.EJECT, null),
                        tuple(40_000_000_000L, EventAction.UNEJECT, UnejectReason.ACTIVE_HEALTH_CHECK));
        // ejections at 30.04, 35.04, ..., 235.04 (42); returns at 35, 40, ..., 240 (42), all by the check
        assertThat(times(r, EventAction.EJECT)).hasSize(42);
        assertThat(of(r, EventAction.UNEJECT)).hasSize(42)
                .extracting(OutlierEvent::uneject).containsOnly(UnejectReason.ACTIVE_HEALTH_CHECK);
        assertThat(r.summary().failed()).isEqualTo(42 * 5);
    }

    @Test
    void withTheSettingOffTheHostStaysOutForItsEjectionTime() {
        RunResult r = Simulation.run(deadHostPassingChecks(false, EVERY_5S));
        assertThat(times(r, EventAction.EJECT)).containsExactly(30_040_000_000L, 70_040_000_000L, 140_040_000_000L);
        assertThat(of(r, EventAction.UNEJECT)).extracting(OutlierEvent::timeNanos, OutlierEvent::uneject).containsExactly(
                tuple(70 * S, UnejectReason.EJECTION_TIME_ELAPSED),
                tuple(140 * S, UnejectReason.EJECTION_TIME_ELAPSED),
                tuple(240 * S, UnejectReason.EJECTION_TIME_ELAPSED));
        assertThat(r.summary().failed()).isEqualTo(15);
    }

    @Test
    void withoutHealthChecksTheSameAsWithTheSettingOff() {
        RunResult r = Simulation.run(deadHostPassingChecks(true, null));
        assertThat(times(r, EventAction.UNEJECT)).containsExactly(70 * S, 140 * S, 240 * S);
    }

    /** Three hosts, 30 rps (10 a second each); host-0 fails every request and every check from 10 s to 40 s. */
    private static RunResult failingChecks(HealthCheckFailure kind) {
        // Consecutive 5xx is set out of reach and the cap to 0, so only the checks act.
        Scenario s = scenario(3, 50, 30, 60 * S,
                List.of(new FaultSpec(List.of("host-0"), 10 * S, 40 * S, 1_000_000, 500, null, kind,
                        FaultPattern.EVEN, FaultSpec.DEFAULT_BURST_LENGTH_MILLI)),
                config(OutlierSetting.MAX_EJECTION_PERCENT, 0, OutlierSetting.CONSECUTIVE_5XX, 1_000_000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE, 1_000_000, OutlierSetting.ENFORCING_SUCCESS_RATE, 0),
                new HealthCheckSpec(5 * S, 2, 1));
        return Simulation.run(s);
    }

    @Test
    void aTimeoutCountsTowardTheThresholdBeforeTheHostLeavesRotation() {
        // unhealthy after two failed checks (10 s, 15 s); it gets requests i = 300, 303, ..., 447 in [10 s, 15 s)
        // = 50 failures and none after; the check at 40 s (fault over) passes and returns it
        for (HealthCheckFailure kind : List.of(HealthCheckFailure.TIMEOUT, HealthCheckFailure.REFUSED)) {
            RunResult r = failingChecks(kind);
            assertThat(r.summary().failed()).as(kind.name()).isEqualTo(50);
            assertThat(r.summary().panicNanos()).isZero(); // 2 of 3 healthy is 66.7 %
            assertThat(times(r, EventAction.EJECT)).isEmpty();
        }
    }

    @Test
    void anUnexpectedStatusFailsTheHostAtTheFirstFailingCheck() {
        // Envoy's setUnhealthy: a non-retriable ACTIVE failure marks the host at once, so the check at 10 s
        // takes host-0 out before its first failing request; back after the passing check at 40 s
        RunResult r = failingChecks(HealthCheckFailure.STATUS);
        assertThat(r.summary().failed()).isZero();
        assertThat(r.hosts().get(0).requests()).isEqualTo(100 + 200); // 10 a second over [0 s, 10 s) and [40 s, 60 s)
    }

    @Test
    void probesStartAtTimeZero() {
        // a fault on host-0 over [0 s, 1 s) that fails its checks with a status: the probe at t = 0 fails it, so
        // it gets no request at all until the probe at 5 s passes
        Scenario s = scenario(3, 0, 30, 10 * S,
                List.of(new FaultSpec(List.of("host-0"), 0, S, 0, 500, null, HealthCheckFailure.STATUS,
                        FaultPattern.EVEN, FaultSpec.DEFAULT_BURST_LENGTH_MILLI)),
                config(), new HealthCheckSpec(5 * S, 3, 1));
        RunResult r = Simulation.run(s);
        // requests 0..149 (before 5 s) go round-robin over host-1 and host-2; from 5 s over all three
        assertThat(r.hosts().get(0).requests()).isEqualTo(50);
    }
}
