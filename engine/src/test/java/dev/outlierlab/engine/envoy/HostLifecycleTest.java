package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static dev.outlierlab.engine.envoy.Fixtures.uncapped;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import org.junit.jupiter.api.Test;

/** Removing hosts and returning them through active health checks. */
class HostLifecycleTest {
    private final Events events = new Events();

    private OutlierDetector detector(Object... overrides) {
        return new OutlierDetector(uncapped(overrides), new SeededRandom(2), events);
    }

    @Test
    void removingAnEjectedHostLowersEjectionsActive() {
        OutlierDetector d = detector();
        HostMonitor h0 = d.addHost("h0");
        HostMonitor h1 = d.addHost("h1");
        respond(h0, 5, 500, S);
        respond(h1, 5, 500, S);
        assertThat(d.stats().ejectionsActive()).isEqualTo(2);
        d.removeHost(h0);
        assertThat(d.stats().ejectionsActive()).isEqualTo(1);
        assertThat(d.ejectedCount()).isEqualTo(1);
        assertThat(h0.isRemoved()).isTrue();
        assertThat(d.hosts()).containsExactly(h1);
        // a second removal changes nothing
        d.removeHost(h0);
        assertThat(d.stats().ejectionsActive()).isEqualTo(1);
        // the removed host is not returned by later ticks: only h1's return is logged
        d.tick(30 * S);
        d.tick(40 * S);
        assertThat(events.of(EventAction.UNEJECT))
                .extracting(OutlierEvent::host)
                .containsExactly("h1");
        assertThat(d.stats().ejectionsActive()).isZero();
    }

    @Test
    void removingAHostInRotationLeavesEjectionsActiveAlone() {
        OutlierDetector d = detector();
        HostMonitor h0 = d.addHost("h0");
        HostMonitor h1 = d.addHost("h1");
        respond(h0, 5, 500, S);
        d.removeHost(h1);
        assertThat(d.stats().ejectionsActive()).isEqualTo(1);
    }

    @Test
    void outcomesReportedToARemovedHostDetectNothing() {
        OutlierDetector d = detector();
        HostMonitor h0 = d.addHost("h0");
        d.addHost("h1");
        d.removeHost(h0);
        respond(h0, 10, 500, S);
        assertThat(events.all).isEmpty();
        assertThat(d.stats().detectedTotal()).isZero();
    }

    @Test
    void aPassingActiveHealthCheckReturnsAnEjectedHost() {
        // successful_active_health_check_uneject_host defaults to true
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        d.addHost("h1");
        respond(h, 5, 500, S);
        respond(h, 3, 500, 2 * S); // counting on while ejected
        assertThat(d.onActiveHealthCheckSuccess(h, 5 * S)).isTrue();
        assertThat(h.isEjected()).isFalse();
        assertThat(d.stats().ejectionsActive()).isZero();
        OutlierEvent e = events.last();
        assertThat(e.action()).isEqualTo(EventAction.UNEJECT);
        assertThat(e.uneject()).isEqualTo(UnejectReason.ACTIVE_HEALTH_CHECK);
        assertThat(e.timeNanos()).isEqualTo(5 * S);
        assertThat(e.outForNanos()).isEqualTo(4 * S);
        assertThat(e.type()).isNull();
        // counters were cleared: it takes five new 5xx to eject it again
        assertThat(h.consecutive5xx()).isZero();
        respond(h, 4, 500, 6 * S);
        assertThat(h.isEjected()).isFalse();
        h.putHttpResponseCode(500, 6 * S);
        assertThat(h.isEjected()).isTrue();
    }

    @Test
    void aPassingHealthCheckOnAHostInRotationDoesNothing() {
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        assertThat(d.onActiveHealthCheckSuccess(h, 5 * S)).isFalse();
        assertThat(events.all).isEmpty();
        assertThat(h.lastUnejectionNanos()).isEqualTo(-1);
    }

    @Test
    void healthChecksDoNotReturnHostsWhenTheSettingIsOff() {
        OutlierDetector d = detector(OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST, false);
        HostMonitor h = d.addHost("h0");
        respond(h, 5, 500, S);
        assertThat(d.onActiveHealthCheckSuccess(h, 5 * S)).isFalse();
        assertThat(h.isEjected()).isTrue();
        assertThat(d.stats().ejectionsActive()).isEqualTo(1);
        assertThat(events.all).hasSize(1);
    }

    @Test
    void aHealthCheckReturnStartsTheDecayClock() {
        // ejected at 1 s (m 1), returned by a health check at 5 s: the 10 s tick is only 5 s later (no decay),
        // the 20 s tick is 15 s later (m 1 -> 0)
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        respond(h, 5, 500, S);
        d.onActiveHealthCheckSuccess(h, 5 * S);
        d.tick(10 * S);
        assertThat(h.multiplier()).isEqualTo(1);
        d.tick(20 * S);
        assertThat(h.multiplier()).isZero();
    }

    @Test
    void envoysHealthCheckFlowStatistics() {
        // Envoy's BasicFlow5xxViaHttpCodesWithActiveHC: three 5xx ejections, two returned by health checks
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        d.addHost("h1");
        for (int round = 0; round < 2; round++) {
            h.putHttpResponseCode(500, 0);
            h.putHttpResponseCode(200, 0);
            respond(h, 5, 500, 0);
            assertThat(h.isEjected()).isTrue();
            d.onActiveHealthCheckSuccess(h, S);
            assertThat(h.isEjected()).isFalse();
        }
        respond(h, 5, 500, 40 * S);
        d.removeHost(h);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_active", 0L)
                .containsEntry("ejections_total", 3L)
                .containsEntry("ejections_consecutive_5xx", 3L)
                .containsEntry("ejections_enforced_total", 3L);
    }
}
