package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.config;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static dev.outlierlab.engine.envoy.Fixtures.uncapped;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How long a host stays out: base * multiplier up to max_ejection_time, growth and decay (spec 6 and 7.3). */
class BackoffTest {
    private final Events events = new Events();

    private OutlierDetector detector(Object... overrides) {
        return new OutlierDetector(uncapped(overrides), new SeededRandom(11), events);
    }

    /**
     * Ejects the host again at the very tick it returns, {@code times} times, and returns how long it stayed out
     * each time (in seconds); ticks every {@code interval} seconds.
     */
    private List<Long> ejectBackToBack(OutlierDetector d, HostMonitor h, int times, long interval) {
        List<Long> outFor = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < times; i++) {
            respond(h, 5, 500, t * S);
            assertThat(h.isEjected()).isTrue();
            long ejectedAt = t;
            while (h.isEjected()) {
                t += interval;
                d.tick(t * S);
            }
            outFor.add(t - ejectedAt);
        }
        return outFor;
    }

    @Test
    void growsByBaseEachTimeUpToMaxEjectionTime() {
        // base 30 s, max 300 s (default): the multiplier grows while m * 30 < 300 + 30, so it stops at 11;
        // out for min(30 * m, 300)
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        List<Long> outFor = ejectBackToBack(d, h, 12, 10);
        assertThat(outFor).containsExactly(30L, 60L, 90L, 120L, 150L, 180L, 210L, 240L, 270L, 300L, 300L, 300L);
        assertThat(events.of(EventAction.EJECT))
                .extracting(e -> e.ejection().multiplier())
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 11L);
        assertThat(events.of(EventAction.EJECT))
                .extracting(e -> e.ejection().durationNanos() / S)
                .containsExactly(30L, 60L, 90L, 120L, 150L, 180L, 210L, 240L, 270L, 300L, 300L, 300L);
        assertThat(h.numEjections()).isEqualTo(12);
    }

    @Test
    void aMaximumThatIsNotAMultipleOfTheBaseCapsTheTime() {
        // Envoy's MaxEjectTimeNotAlligned: base 10 s, max 305 s; out for 10, 20, ..., 300, then 305 s, which
        // the 10 s ticks see at 310 s; the multiplier stops at 32 (31 * 10 = 310 < 315, 32 * 10 = 320 is not)
        OutlierDetector d =
                detector(OutlierSetting.BASE_EJECTION_TIME, 10 * S, OutlierSetting.MAX_EJECTION_TIME, 305 * S);
        HostMonitor h = d.addHost("h0");
        List<Long> outFor = ejectBackToBack(d, h, 34, 10);
        List<Long> expected = new ArrayList<>();
        for (long s = 10; s <= 300; s += 10) {
            expected.add(s); // 30 entries: 10 .. 300
        }
        expected.addAll(List.of(310L, 310L, 310L, 310L));
        assertThat(outFor).containsExactlyElementsOf(expected);
        List<OutlierEvent> ejects = events.of(EventAction.EJECT);
        assertThat(ejects.get(30).ejection().durationNanos()).isEqualTo(305 * S);
        assertThat(ejects.subList(29, 34))
                .extracting(e -> e.ejection().multiplier())
                .containsExactly(30L, 31L, 32L, 32L, 32L);
    }

    @Test
    void decaysByOneAtEachTickAfterAWholeIntervalBack() {
        // Envoy's EjectTimeBackoff, with base 30 s and interval 10 s
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        respond(h, 5, 500, 0); // m 1, out 30 s
        tickThrough(d, 10, 30); // back at 30
        assertThat(h.multiplier()).isEqualTo(1); // not back for a whole interval yet at 30
        respond(h, 5, 500, 30 * S); // m 2, out 60 s
        tickThrough(d, 40, 90); // back at 90 (no decay while ejected)
        assertThat(h.isEjected()).isFalse();
        assertThat(h.multiplier()).isEqualTo(2);
        respond(h, 5, 500, 90 * S); // m 3, out 90 s
        tickThrough(d, 100, 180); // back at 180
        assertThat(h.multiplier()).isEqualTo(3);
        d.tick(190 * S); // back 10 s >= 10: 3 -> 2
        assertThat(h.multiplier()).isEqualTo(2);
        d.tick(200 * S); // 2 -> 1
        assertThat(h.multiplier()).isEqualTo(1);
        respond(h, 5, 500, 200 * S); // m 2: out 60 s, not 90
        assertThat(events.last().ejection().durationNanos()).isEqualTo(60 * S);
        d.tick(250 * S);
        assertThat(h.isEjected()).isTrue();
        d.tick(260 * S);
        assertThat(h.isEjected()).isFalse();
        d.tick(270 * S); // 2 -> 1
        d.tick(280 * S); // 1 -> 0
        d.tick(290 * S); // stays 0
        assertThat(h.multiplier()).isZero();
        respond(h, 5, 500, 290 * S); // m 1: out 30 s again
        assertThat(events.last().ejection().durationNanos()).isEqualTo(30 * S);
        d.tick(310 * S);
        assertThat(h.isEjected()).isTrue();
        d.tick(320 * S);
        assertThat(h.isEjected()).isFalse();
    }

    @Test
    void aHostNeverEjectedDoesNotDecayBelowZero() {
        OutlierDetector d = detector();
        HostMonitor h = d.addHost("h0");
        tickThrough(d, 10, 100);
        assertThat(h.multiplier()).isZero();
        assertThat(h.lastUnejectionNanos()).isEqualTo(-1);
    }

    @Test
    void maxEqualToBaseKeepsEveryEjectionAtTheBase() {
        // max 30 s = base: m grows 0 -> 1 -> 2 (30 < 60) and stops (60 < 60 is false); out for min(30 m, 30) = 30
        OutlierDetector d = detector(OutlierSetting.MAX_EJECTION_TIME, 30 * S);
        HostMonitor h = d.addHost("h0");
        assertThat(ejectBackToBack(d, h, 4, 10)).containsExactly(30L, 30L, 30L, 30L);
        assertThat(events.of(EventAction.EJECT))
                .extracting(e -> e.ejection().multiplier())
                .containsExactly(1L, 2L, 2L, 2L);
    }

    @Test
    void maxEjectionTimeDefaultsToTheLargerOf300sAndTheBase() {
        assertThat(OutlierDetectionConfig.defaults().maxEjectionTimeNanos()).isEqualTo(300 * S);
        assertThat(config(OutlierSetting.BASE_EJECTION_TIME, 10 * S).maxEjectionTimeNanos())
                .isEqualTo(300 * S);
        // Envoy's DetectorStaticConfigBaseLargerThanMaxNoMax
        assertThat(config(OutlierSetting.BASE_EJECTION_TIME, 400 * S).maxEjectionTimeNanos())
                .isEqualTo(400 * S);
        assertThat(config(OutlierSetting.BASE_EJECTION_TIME, 10 * S, OutlierSetting.MAX_EJECTION_TIME, 400 * S)
                        .maxEjectionTimeNanos())
                .isEqualTo(400 * S);
        assertThat(config(OutlierSetting.BASE_EJECTION_TIME, 400 * S).isExplicit(OutlierSetting.MAX_EJECTION_TIME))
                .isFalse();
    }

    @Test
    void aBaseAbove300sWithTheDefaultMaxStaysAtTheBase() {
        // base 400 s, max defaults to 400 s: every ejection is 400 s
        OutlierDetector d = detector(OutlierSetting.BASE_EJECTION_TIME, 400 * S);
        HostMonitor h = d.addHost("h0");
        assertThat(ejectBackToBack(d, h, 3, 100)).containsExactly(400L, 400L, 400L);
    }

    private static void tickThrough(OutlierDetector d, long fromSeconds, long toSeconds) {
        for (long t = fromSeconds; t <= toSeconds; t += 10) {
            d.tick(t * S);
        }
    }
}
