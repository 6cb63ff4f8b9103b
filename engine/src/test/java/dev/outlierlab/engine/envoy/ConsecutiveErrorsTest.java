package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static dev.outlierlab.engine.envoy.Fixtures.uncapped;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.event.ConsecutiveEvidence;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import org.junit.jupiter.api.Test;

/** Consecutive 5xx and consecutive gateway failure, response by response (spec 6, per-response steps 2 and 3). */
class ConsecutiveErrorsTest {
    private final Events events = new Events();

    /** Two hosts and a cap of 100 so that the cap never gets in the way. */
    private OutlierDetector detector(Object... overrides) {
        OutlierDetector d = new OutlierDetector(uncapped(overrides), new SeededRandom(3), events);
        d.addHost("h0");
        d.addHost("h1");
        return d;
    }

    @Test
    void theFifthConsecutive5xxEjectsAndNotTheFourth() {
        OutlierDetector d = detector();
        HostMonitor h = d.hosts().get(0);
        respond(h, 4, 500, 2 * S);
        assertThat(events.all).isEmpty();
        assertThat(h.consecutive5xx()).isEqualTo(4);
        h.putHttpResponseCode(500, 3 * S);
        assertThat(events.all).hasSize(1);
        OutlierEvent e = events.last();
        assertThat(e.action()).isEqualTo(EventAction.EJECT);
        assertThat(e.type()).isEqualTo(EjectionType.CONSECUTIVE_5XX);
        assertThat(e.timeNanos()).isEqualTo(3 * S);
        assertThat(e.evidence()).isEqualTo(new ConsecutiveEvidence(5, 5));
        assertThat(e.numEjections()).isEqualTo(1);
        assertThat(h.isEjected()).isTrue();
        assertThat(h.lastEjectionNanos()).isEqualTo(3 * S);
        // the counter is reset after the detection
        assertThat(h.consecutive5xx()).isZero();
    }

    @Test
    void aSuccessResetsTheCount() {
        // Envoy's BasicFlow5xxViaHttpCodes: 500, 200, then 4 x 500 is not enough; the fifth in a row ejects
        OutlierDetector d = detector();
        HostMonitor h = d.hosts().get(0);
        h.putHttpResponseCode(500, S);
        h.putHttpResponseCode(200, S);
        respond(h, 4, 500, S);
        assertThat(events.all).isEmpty();
        h.putHttpResponseCode(500, S);
        assertThat(events.all).extracting(OutlierEvent::action).containsExactly(EventAction.EJECT);
    }

    @Test
    void a4xxCountsAsASuccess() {
        OutlierDetector d = detector();
        HostMonitor h = d.hosts().get(0);
        respond(h, 4, 500, S);
        h.putHttpResponseCode(404, S);
        assertThat(h.consecutive5xx()).isZero();
        respond(h, 4, 599, S);
        assertThat(events.all).isEmpty();
        assertThat(h.consecutive5xx()).isEqualTo(4);
    }

    @Test
    void countsKeepGoingWhileEjectedAndNeverRetriggerThenResetOnReturn() {
        OutlierDetector d = detector();
        HostMonitor h = d.hosts().get(0);
        respond(h, 5, 500, 0);
        assertThat(h.isEjected()).isTrue();
        // 12 more while ejected: the counter passes 5 without a second detection
        respond(h, 12, 500, S);
        assertThat(h.consecutive5xx()).isEqualTo(12);
        assertThat(events.all).hasSize(1);
        assertThat(d.stats().detected(EjectionType.CONSECUTIVE_5XX)).isEqualTo(1);
        // base_ejection_time 30 s: still out at the 10 s and 20 s ticks, back at 30 s with counters reset
        d.tick(10 * S);
        d.tick(20 * S);
        assertThat(h.isEjected()).isTrue();
        d.tick(30 * S);
        assertThat(h.isEjected()).isFalse();
        assertThat(h.consecutive5xx()).isZero();
        assertThat(h.consecutiveGatewayFailure()).isZero();
        assertThat(events.last().action()).isEqualTo(EventAction.UNEJECT);
        assertThat(events.last().uneject()).isEqualTo(UnejectReason.EJECTION_TIME_ELAPSED);
        assertThat(events.last().outForNanos()).isEqualTo(30 * S);
        assertThat(h.lastUnejectionNanos()).isEqualTo(30 * S);
        // four more after the return are not enough; the fifth ejects again
        respond(h, 4, 500, 31 * S);
        assertThat(h.isEjected()).isFalse();
        h.putHttpResponseCode(500, 31 * S);
        assertThat(h.isEjected()).isTrue();
        assertThat(events.all)
                .extracting(OutlierEvent::action)
                .containsExactly(EventAction.EJECT, EventAction.UNEJECT, EventAction.EJECT);
    }

    @Test
    void aCountReachingTheThresholdAgainWhileEjectedRunsOnWithoutADetection() {
        // the count reaches exactly 5 while the host is ejected: no detection and no reset, so it runs on
        OutlierDetector d = detector();
        HostMonitor h = d.hosts().get(0);
        respond(h, 3, 500, 0);
        respond(h, 5, 500, 0); // ejects at the 5th, counter reset to 0, then 3 more
        assertThat(h.consecutive5xx()).isEqualTo(3);
        respond(h, 2, 500, 0); // reaches exactly 5 while ejected
        assertThat(h.consecutive5xx()).isEqualTo(5);
        respond(h, 1, 500, 0);
        assertThat(h.consecutive5xx()).isEqualTo(6);
        assertThat(d.stats().detected(EjectionType.CONSECUTIVE_5XX)).isEqualTo(1);
    }

    @Test
    void consecutive5xxThresholdOfOneEjectsOnTheFirstError() {
        OutlierDetector d = detector(OutlierSetting.CONSECUTIVE_5XX, 1);
        HostMonitor h = d.hosts().get(0);
        h.putHttpResponseCode(500, S);
        assertThat(h.isEjected()).isTrue();
    }

    // ---- gateway failure ----

    @Test
    void gatewayFailureCountsOnly502To504AndA500ResetsItButCountsAs5xx() {
        OutlierDetector d = detector(OutlierSetting.CONSECUTIVE_5XX, 100);
        HostMonitor h = d.hosts().get(0);
        h.putHttpResponseCode(502, S);
        h.putHttpResponseCode(503, S);
        h.putHttpResponseCode(504, S);
        assertThat(h.consecutiveGatewayFailure()).isEqualTo(3);
        assertThat(h.consecutive5xx()).isEqualTo(3);
        h.putHttpResponseCode(500, S);
        assertThat(h.consecutiveGatewayFailure()).isZero();
        assertThat(h.consecutive5xx()).isEqualTo(4);
        h.putHttpResponseCode(501, S);
        h.putHttpResponseCode(505, S);
        assertThat(h.consecutiveGatewayFailure()).isZero();
        assertThat(h.consecutive5xx()).isEqualTo(6);
        h.putHttpResponseCode(503, S);
        h.putHttpResponseCode(200, S);
        assertThat(h.consecutiveGatewayFailure()).isZero();
        assertThat(h.consecutive5xx()).isZero();
        assertThat(events.all).isEmpty();
    }

    @Test
    void gatewayFailureIsDetectedButNotEnforcedByDefault() {
        // consecutive_5xx 100 keeps the 5xx detector out of the way; enforcing_consecutive_gateway_failure is 0
        OutlierDetector d = detector(OutlierSetting.CONSECUTIVE_5XX, 100);
        HostMonitor h = d.hosts().get(0);
        respond(h, 5, 503, 4 * S);
        assertThat(events.all).hasSize(1);
        OutlierEvent e = events.last();
        assertThat(e.action()).isEqualTo(EventAction.UNENFORCED);
        assertThat(e.type()).isEqualTo(EjectionType.CONSECUTIVE_GATEWAY_FAILURE);
        assertThat(e.enforcement().enforcingPercent()).isZero();
        assertThat(e.enforcement().drawMod100()).isEqualTo(-1);
        assertThat(e.ejection()).isNull();
        assertThat(h.isEjected()).isFalse();
        // detection resets the gateway counter; the 5xx counter runs on
        assertThat(h.consecutiveGatewayFailure()).isZero();
        assertThat(h.consecutive5xx()).isEqualTo(5);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_detected_consecutive_gateway_failure", 1L)
                .containsEntry("ejections_enforced_consecutive_gateway_failure", 0L)
                .containsEntry("ejections_enforced_total", 0L)
                .containsEntry("ejections_active", 0L);
    }

    @Test
    void gatewayFailureWithEnforcement100Ejects() {
        OutlierDetector d = detector(
                OutlierSetting.CONSECUTIVE_5XX, 100, OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, 100);
        HostMonitor h = d.hosts().get(0);
        respond(h, 4, 504, S);
        assertThat(h.isEjected()).isFalse();
        h.putHttpResponseCode(502, S);
        assertThat(h.isEjected()).isTrue();
        assertThat(events.last().type()).isEqualTo(EjectionType.CONSECUTIVE_GATEWAY_FAILURE);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_enforced_consecutive_gateway_failure", 1L)
                .containsEntry("ejections_enforced_total", 1L);
    }

    @Test
    void withDefaultsFive503sGiveAnUnenforcedGatewayDetectionThenA5xxEjection() {
        // Envoy's NotEnforcing / BasicFlowNonHttpCodes: both counters reach 5 on the same response; the gateway
        // detector runs first
        OutlierDetector d = detector();
        HostMonitor h = d.hosts().get(0);
        respond(h, 5, 503, 0);
        assertThat(events.all)
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(
                        tuple(EventAction.UNENFORCED, EjectionType.CONSECUTIVE_GATEWAY_FAILURE),
                        tuple(EventAction.EJECT, EjectionType.CONSECUTIVE_5XX));
        assertThat(d.stats().detectedTotal()).isEqualTo(2);
    }

    @Test
    void envoysGatewayFailureFlowWithItsStatistics() {
        // Envoy's BasicFlowGatewayFailure, restated: enforcing_consecutive_5xx 0, gateway enforced 100.
        OutlierDetector d = detector(
                OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 0, OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, 100);
        HostMonitor h = d.hosts().get(0);
        // 503 500 503 503 503: the 5xx count reaches 5 (detected, not enforced); the gateway count is 3
        h.putHttpResponseCode(503, 0);
        h.putHttpResponseCode(500, 0);
        respond(h, 3, 503, 0);
        assertThat(events.all)
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(tuple(EventAction.UNENFORCED, EjectionType.CONSECUTIVE_5XX));
        // two more 503s: gateway count 5 -> ejected
        respond(h, 2, 503, 0);
        assertThat(events.last().action()).isEqualTo(EventAction.EJECT);
        assertThat(events.last().type()).isEqualTo(EjectionType.CONSECUTIVE_GATEWAY_FAILURE);
        // back at the 30 s tick; five 503s eject by gateway failure again, and the 5xx detector, reaching 5 on
        // the same response, finds the host already ejected and records nothing
        d.tick(10 * S);
        d.tick(20 * S);
        d.tick(30 * S);
        assertThat(h.isEjected()).isFalse();
        respond(h, 5, 503, 40 * S);
        assertThat(h.isEjected()).isTrue();
        assertThat(events.all)
                .extracting(OutlierEvent::action)
                .containsExactly(EventAction.UNENFORCED, EventAction.EJECT, EventAction.UNEJECT, EventAction.EJECT);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_total", 1L) // the 5xx offer admitted by the cap, though not enforced
                .containsEntry("ejections_enforced_total", 2L)
                .containsEntry("ejections_detected_consecutive_gateway_failure", 2L)
                .containsEntry("ejections_enforced_consecutive_gateway_failure", 2L)
                .containsEntry("ejections_detected_consecutive_5xx", 1L)
                .containsEntry("ejections_enforced_consecutive_5xx", 0L)
                .containsEntry("ejections_consecutive_5xx", 1L);
    }

    @Test
    void gateway5xxMixFirstGatewayThen5xxAfterReturn() {
        // Envoy's BasicFlowGatewayFailureAnd5xx: gateway enforced; 503, 200, 5 x 503 ejects by gateway failure;
        // after the return 503 503 500 500 500 ejects by 5xx (the gateway count only reached 2)
        OutlierDetector d = detector(OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, 100);
        HostMonitor h = d.hosts().get(0);
        h.putHttpResponseCode(503, 0);
        h.putHttpResponseCode(200, 0);
        respond(h, 5, 503, 0);
        assertThat(events.last().type()).isEqualTo(EjectionType.CONSECUTIVE_GATEWAY_FAILURE);
        d.tick(30 * S);
        respond(h, 2, 503, 40 * S);
        respond(h, 3, 500, 40 * S);
        assertThat(events.last().action()).isEqualTo(EventAction.EJECT);
        assertThat(events.last().type()).isEqualTo(EjectionType.CONSECUTIVE_5XX);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_total", 1L)
                .containsEntry("ejections_enforced_total", 2L)
                .containsEntry("ejections_consecutive_5xx", 1L)
                .containsEntry("ejections_detected_consecutive_5xx", 1L)
                .containsEntry("ejections_detected_consecutive_gateway_failure", 1L);
    }
}
