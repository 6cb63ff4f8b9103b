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
        return scenario(
                6,
                50,
                600,
                300 * S,
                List.of(FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(30 * S, 240 * S)
                        .errorRatePpm(1_000_000)
                        .status(500)
                        .build()),
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        34,
                        OutlierSetting.ENFORCING_SUCCESS_RATE,
                        0,
                        OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST,
                        unejectOnCheck),
                checks);
    }

    @Test
    void aPassingCheckReturnsTheEjectedHostAtTheNextProbe() {
        // Envoy's HealthCheckerImplBase: probe at 0 s, before any request, so the next waits no_traffic_interval
        // (60 s); from then on the cluster has carried traffic and probes come every 5 s. host-0 is ejected at
        // 30.04 s (its fifth request from 30 s, i = 18024) and stays out until the probe at 60 s returns it; its next
        // five requests eject it again at 60.04 s; and so on every 5 s
        RunResult r = Simulation.run(deadHostPassingChecks(true, EVERY_5S));
        List<OutlierEvent> moves = r.events().stream()
                .filter(e -> e.action() == EventAction.EJECT || e.action() == EventAction.UNEJECT)
                .toList();
        assertThat(moves.subList(0, 4))
                .extracting(OutlierEvent::timeNanos, OutlierEvent::action, OutlierEvent::uneject)
                .containsExactly(
                        tuple(30_040_000_000L, EventAction.EJECT, null),
                        tuple(60_000_000_000L, EventAction.UNEJECT, UnejectReason.ACTIVE_HEALTH_CHECK),
                        tuple(60_040_000_000L, EventAction.EJECT, null),
                        tuple(65_000_000_000L, EventAction.UNEJECT, UnejectReason.ACTIVE_HEALTH_CHECK));
        // ejections at 30.04 and 60.04, 65.04, ..., 235.04 (37); returns at 60, 65, ..., 240 (37), all by the check
        assertThat(times(r, EventAction.EJECT)).hasSize(37);
        assertThat(of(r, EventAction.UNEJECT))
                .hasSize(37)
                .extracting(OutlierEvent::uneject)
                .containsOnly(UnejectReason.ACTIVE_HEALTH_CHECK);
        assertThat(r.summary().failed()).isEqualTo(37 * 5);
        // with no_traffic_interval 5 s the second probe is at 5 s and every later one 5 s after the last
        RunResult quick = Simulation.run(deadHostPassingChecks(true, EVERY_5S.withNoTrafficInterval(5 * S)));
        assertThat(times(quick, EventAction.UNEJECT).subList(0, 2)).containsExactly(35 * S, 40 * S);
        assertThat(times(quick, EventAction.EJECT)).hasSize(42);
        assertThat(quick.summary().failed()).isEqualTo(42 * 5);
    }

    @Test
    void withTheSettingOffTheHostStaysOutForItsEjectionTime() {
        RunResult r = Simulation.run(deadHostPassingChecks(false, EVERY_5S));
        assertThat(times(r, EventAction.EJECT)).containsExactly(30_040_000_000L, 70_040_000_000L, 140_040_000_000L);
        assertThat(of(r, EventAction.UNEJECT))
                .extracting(OutlierEvent::timeNanos, OutlierEvent::uneject)
                .containsExactly(
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
    private static RunResult failingChecks(HealthCheckFailure kind, long noTrafficIntervalNanos) {
        // Consecutive 5xx is set out of reach and the cap to 0, so only the checks act.
        Scenario s = scenario(
                3,
                50,
                30,
                60 * S,
                List.of(FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(10 * S, 40 * S)
                        .errorRatePpm(1_000_000)
                        .status(500)
                        .healthCheckFailure(kind)
                        .build()),
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        0,
                        OutlierSetting.CONSECUTIVE_5XX,
                        1_000_000,
                        OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                        1_000_000,
                        OutlierSetting.ENFORCING_SUCCESS_RATE,
                        0),
                new HealthCheckSpec(5 * S, 2, 1).withNoTrafficInterval(noTrafficIntervalNanos));
        return Simulation.run(s);
    }

    @Test
    void withEnvoysDefaultNoTrafficIntervalTheSecondProbeComesAfterTheFault() {
        // probe at 0 s (passes), then no_traffic_interval 60 s: no probe falls in [10 s, 40 s), so every one of
        // host-0's 300 requests there fails, whatever the kind of failure
        for (HealthCheckFailure kind : HealthCheckFailure.values()) {
            RunResult r = failingChecks(kind, HealthCheckSpec.DEFAULT_NO_TRAFFIC_INTERVAL_NANOS);
            assertThat(r.summary().failed()).as(kind.name()).isEqualTo(300);
        }
    }

    @Test
    void aRefusedProbeCountsAtOnceAndATimedOutOneATimeoutLater() {
        // no_traffic_interval 5 s: probes at 0 and 5 s, then (traffic) every 5 s after each response.
        // refused: failures at 10 s (pending, next after unhealthy_edge_interval) and 15 s -> failed at 15 s:
        // requests in [10 s, 15 s) fail, 50 of them
        RunResult refused = failingChecks(HealthCheckFailure.REFUSED, 5 * S);
        assertThat(refused.summary().failed()).isEqualTo(50);
        // timeout (1 s): the probe at 10 s fails at 11 s, the next is armed then, at 16 s, and fails at 17 s -> failed
        // at 17 s: 70 failures
        RunResult timeout = failingChecks(HealthCheckFailure.TIMEOUT, 5 * S);
        assertThat(timeout.summary().failed()).isEqualTo(70);
        for (RunResult r : List.of(refused, timeout)) {
            assertThat(r.summary().panicNanos()).isZero(); // 2 of 3 healthy is 93 % available, 66.7 % healthy
            assertThat(times(r, EventAction.EJECT)).isEmpty();
        }
    }

    @Test
    void anUnexpectedStatusFailsTheHostAtTheFirstFailingCheck() {
        // Envoy's setUnhealthy: a non-retriable ACTIVE failure marks the host at once, so the check at 10 s
        // takes host-0 out before its first failing request; back after the passing check at 40 s
        RunResult r = failingChecks(HealthCheckFailure.STATUS, 5 * S);
        assertThat(r.summary().failed()).isZero();
        assertThat(r.hosts().get(0).requests()).isEqualTo(100 + 200); // 10 a second over [0 s, 10 s) and [40 s, 60 s)
    }

    @Test
    void hostsStartFailedAndTheFirstProbeAtTimeZeroDecides() {
        // StaticClusterImpl::startPreInit marks a health-checked cluster's hosts FAILED_ACTIVE_HC; the first
        // passing probe clears one at once. host-0's probe at t = 0 fails (a fault over [0 s, 1 s)), so it stays
        // failed, and the next probe waits no_traffic_interval 60 s: no request reaches it in the 10 s run
        FaultSpec brief = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, S)
                .errorRatePpm(0)
                .status(500)
                .healthCheckFailure(HealthCheckFailure.STATUS)
                .build();
        RunResult r =
                Simulation.run(scenario(3, 0, 30, 10 * S, List.of(brief), config(), new HealthCheckSpec(5 * S, 3, 1)));
        assertThat(r.hosts().get(0).requests()).isZero();
        // with no_traffic_interval 5 s the probe at 5 s passes and clears it (healthy_threshold 1): requests
        // 150..299 go round-robin over all three, 50 to host-0
        RunResult quick = Simulation.run(scenario(
                3,
                0,
                30,
                10 * S,
                List.of(brief),
                config(),
                new HealthCheckSpec(5 * S, 3, 1).withNoTrafficInterval(5 * S)));
        assertThat(quick.hosts().get(0).requests()).isEqualTo(50);
    }
}
