package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.config;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.event.DegradationEvent;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Envoy 1.38's {@code detect_degraded_hosts}, as envoyproxy/envoy pull 41852 describes it and
 * {@code outlier_detection_impl.cc} with it implements it ({@code setHostDegradedMainThread},
 * {@code checkHostForUndegrade}, the degrade-backoff loop of {@code onIntervalTimer}; read at wbpcode/envoy commit
 * 47d4554): a 2xx response with {@code x-envoy-degraded} marks the host degraded (health flag
 * DEGRADED_OUTLIER_DETECTION), counted in {@code ejections_detected_degradation}, never in {@code ejections_active},
 * with no cap; the mark is cleared at the tick where {@code min(base * degradeTimeBackoff, max) + jitter <= now -
 * lastDegradedTime}; the backoff grows with every mark and drops after a whole interval clear; an active health check
 * does not clear it.
 */
class DegradedHostsTest {
    private final List<DegradationEvent> marks = new ArrayList<>();
    private final List<OutlierEvent> events = new ArrayList<>();
    private final DetectorListener listener = new DetectorListener() {
        @Override
        public void onEvent(OutlierEvent event) {
            events.add(event);
        }

        @Override
        public void onDegradation(DegradationEvent event) {
            marks.add(event);
        }
    };

    private OutlierDetector detector(Object... overrides) {
        Object[] all = new Object[overrides.length + 2];
        all[0] = OutlierSetting.DETECT_DEGRADED_HOSTS;
        all[1] = true;
        System.arraycopy(overrides, 0, all, 2, overrides.length);
        return new OutlierDetector(config(all), new SeededRandom(3), listener);
    }

    @Test
    void aDegradedResponseMarksTheHostWithoutEjectingIt() {
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        h.putHttpResponseCode(200, true, 5 * S);
        assertThat(h.isDegraded()).isTrue();
        assertThat(h.isEjected()).isFalse();
        assertThat(d.ejectedCount()).isZero();
        assertThat(d.degradedCount()).isEqualTo(1);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_detected_degradation", 1L)
                .containsEntry("ejections_active", 0L)
                .containsEntry("ejections_enforced_total", 0L);
        assertThat(events).isEmpty();
        assertThat(marks).singleElement().satisfies(m -> {
            assertThat(m.degraded()).isTrue();
            assertThat(m.multiplier()).isEqualTo(1);
            assertThat(m.durationNanos()).isEqualTo(30 * S);
        });
        // the response still counts as a success for the success-rate buckets
        d.tick(10 * S);
        assertThat(h.successRate(Origin.EXTERNAL).judgedSuccesses()).isEqualTo(1);
        // a host already degraded is not marked again
        h.putHttpResponseCode(200, true, 11 * S);
        assertThat(d.stats().ejectionsDetectedDegradation()).isEqualTo(1);
    }

    @Test
    void onlyA2xxWithTheHeaderAndTheSettingMarks() {
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        h.putHttpResponseCode(503, true, S);
        h.putHttpResponseCode(200, false, S);
        h.putHttpResponseCode(404, true, S);
        assertThat(h.isDegraded()).isFalse();
        h.putHttpResponseCode(204, true, S);
        assertThat(h.isDegraded()).isTrue();

        OutlierDetector off = new OutlierDetector(config(), new SeededRandom(3), listener);
        HostMonitor other = off.addHost("h1");
        other.putHttpResponseCode(200, true, S);
        assertThat(other.isDegraded()).isFalse();
        assertThat(off.stats().ejectionsDetectedDegradation()).isZero();
    }

    @Test
    void theMarkIsClearedAtTheTickItsBackoffTimeHasPassedAndTheBackoffGrows() {
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        h.putHttpResponseCode(200, true, 5 * S);
        d.tick(10 * S);
        d.tick(20 * S);
        d.tick(30 * S); // 25 s < 30 s
        assertThat(h.isDegraded()).isTrue();
        d.tick(40 * S); // 35 s >= 30 s
        assertThat(h.isDegraded()).isFalse();
        assertThat(marks.get(1).degraded()).isFalse();
        assertThat(marks.get(1).timeNanos()).isEqualTo(40 * S);
        assertThat(marks.get(1).durationNanos()).isEqualTo(35 * S);
        // marked again at once: the backoff is 2, so 60 s
        h.putHttpResponseCode(200, true, 41 * S);
        assertThat(h.degradationMultiplier()).isEqualTo(2);
        for (long t = 50; t <= 100; t += 10) {
            d.tick(t * S);
        }
        assertThat(h.isDegraded()).isTrue(); // 59 s < 60 s
        d.tick(110 * S);
        assertThat(h.isDegraded()).isFalse();
        assertThat(d.stats().ejectionsDetectedDegradation()).isEqualTo(2);
        // clear for a whole interval: the backoff drops by one at the tick's end (the ejection rule since 1.28)
        d.tick(120 * S);
        assertThat(h.degradationMultiplier()).isEqualTo(1);
        d.tick(130 * S);
        assertThat(h.degradationMultiplier()).isZero();
        // the ejection multiplier is a different one and never moved
        assertThat(h.multiplier()).isZero();
    }

    @Test
    void thereIsNoCapAndAnEjectedHostIsMarkedToo() {
        OutlierDetector d = detector(OutlierSetting.MAX_EJECTION_PERCENT, 0);
        List<HostMonitor> hosts = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            hosts.add(d.addHost("h" + i));
        }
        for (HostMonitor h : hosts) {
            h.putHttpResponseCode(200, true, S);
        }
        assertThat(d.degradedCount()).isEqualTo(6);
        assertThat(d.stats().ejectionsOverflow()).isZero();

        OutlierDetector e = detector(OutlierSetting.MAX_EJECTION_PERCENT, 100);
        HostMonitor h = e.addHost("h0");
        respond(h, 5, 500, S);
        assertThat(h.isEjected()).isTrue();
        // setHostDegradedMainThread checks only the degraded flag: an ejected host answering in panic is marked too,
        // and stays ejected (the balancer's ejection has priority)
        h.putHttpResponseCode(200, true, 2 * S);
        assertThat(h.isDegraded()).isTrue();
        assertThat(h.isEjected()).isTrue();
        assertThat(e.stats().ejectionsDetectedDegradation()).isEqualTo(1);
        assertThat(e.ejectedCount()).isEqualTo(1);
    }

    @Test
    void aDegradationDrawsTheHostsOneJitterAgainWhichItsEjectionShares() {
        // setHostDegradedMainThread calls setJitter, and checkHostForUneject reads getJitter: the same field
        Fixtures.ScriptedRandom draws = new Fixtures.ScriptedRandom(2_000, 9_000);
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.DETECT_DEGRADED_HOSTS,
                        true,
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.MAX_EJECTION_TIME_JITTER,
                        10 * S),
                draws,
                listener);
        HostMonitor h = d.addHost("h0");
        respond(h, 5, 500, 5 * S); // ejected at 5 s with jitter 2 s: due at 37 s
        assertThat(h.jitterNanos()).isEqualTo(2 * S);
        h.putHttpResponseCode(200, true, 6 * S); // degraded at 6 s with jitter 9 s, now the ejection's too
        assertThat(h.jitterNanos()).isEqualTo(9 * S);
        for (long t = 10; t <= 40; t += 10) {
            d.tick(t * S);
        }
        assertThat(h.isEjected()).isTrue(); // 35 s < 30 + 9
        assertThat(h.isDegraded()).isTrue();
        d.tick(50 * S);
        assertThat(h.isEjected()).isFalse();
        assertThat(h.isDegraded()).isFalse();
        assertThat(draws.taken()).isEqualTo(2);
    }

    @Test
    void aPassingActiveHealthCheckDoesNotClearTheMark() {
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        h.putHttpResponseCode(200, true, S);
        assertThat(d.onActiveHealthCheckSuccess(h, 2 * S)).isFalse();
        assertThat(h.isDegraded()).isTrue();
    }

    @Test
    void degradedHostsGetTrafficOnlyWhenTheHealthyOnesAreNotEnough() {
        // Envoy's "Degraded endpoints" table (P=0 healthy/degraded/unhealthy -> traffic to healthy/degraded)
        assertThat(PriorityLoad.of(100, 0, 100)).isEqualTo(new PriorityLoad(100, 0));
        assertThat(PriorityLoad.of(71, 0, 100)).isEqualTo(new PriorityLoad(100, 0));
        assertThat(PriorityLoad.of(71, 29, 100)).isEqualTo(new PriorityLoad(99, 1));
        assertThat(PriorityLoad.of(25, 65, 100)).isEqualTo(new PriorityLoad(35, 65));
        // six hosts, one degraded: 140 * 5 / 6 = 116 -> the healthy hosts take everything
        assertThat(PriorityLoad.of(5, 1, 6)).isEqualTo(new PriorityLoad(100, 0));
        // three healthy, two degraded, one ejected: 70 and 46 -> 70 % and 30 %
        assertThat(PriorityLoad.of(3, 2, 6)).isEqualTo(new PriorityLoad(70, 30));
        // no healthy host: the degraded ones take it all
        assertThat(PriorityLoad.of(0, 4, 6)).isEqualTo(new PriorityLoad(0, 100));
    }
}
