package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.MS;
import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static dev.outlierlab.engine.envoy.Fixtures.uncapped;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.Fixtures.CountingRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.Fixtures.ScriptedRandom;
import dev.outlierlab.engine.envoy.event.Enforcement;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The enforcing draw ({@code draw mod 100 < percent}, none at 0 and 100) and the ejection jitter
 * ({@code draw mod (jitter_ms + 1)} ms, drawn at every ejection), with scripted random sources.
 */
class EnforcementAndJitterTest {
    private final Events events = new Events();

    private OutlierDetector detector(RandomSource random, int hosts, Object... overrides) {
        OutlierDetector d = new OutlierDetector(uncapped(overrides), random, events);
        for (int i = 0; i < hosts; i++) {
            d.addHost("h" + i);
        }
        return d;
    }

    @Test
    void drawModHundredBelowThePercentEjects() {
        // enforcing 30: h0 draws 129 -> 29 < 30 ejects (then one jitter draw); h1 draws 230 -> 30, not < 30
        ScriptedRandom random = new ScriptedRandom(129, 0, 230);
        OutlierDetector d = detector(random, 3, OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 30);
        respond(d.hosts().get(0), 5, 500, S);
        respond(d.hosts().get(1), 5, 500, S);
        assertThat(events.all)
                .extracting(OutlierEvent::action)
                .containsExactly(EventAction.EJECT, EventAction.UNENFORCED);
        assertThat(events.all.get(0).enforcement()).isEqualTo(new Enforcement(30, 29, true));
        assertThat(events.all.get(1).enforcement()).isEqualTo(new Enforcement(30, 30, false));
        assertThat(random.taken()).isEqualTo(3);
        assertThat(d.stats().ejectionsEnforcedTotal()).isEqualTo(1);
        assertThat(d.stats().detected(EjectionType.CONSECUTIVE_5XX)).isEqualTo(2);
    }

    @Test
    void aLambdaRandomSourceAtTheBoundaries() {
        // every draw is 57: a percent p ejects iff 57 < p, so 57 and 1 refuse, 58 and 99 eject
        RandomSource fiftySeven = () -> 57;
        int[] percents = {1, 57, 58, 99};
        EventAction[] expected = {EventAction.UNENFORCED, EventAction.UNENFORCED, EventAction.EJECT, EventAction.EJECT};
        for (int i = 0; i < percents.length; i++) {
            Events seen = new Events();
            OutlierDetector d = new OutlierDetector(
                    Fixtures.config(
                            OutlierSetting.MAX_EJECTION_PERCENT,
                            100,
                            OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
                            percents[i]),
                    fiftySeven,
                    seen);
            respond(d.addHost("h0"), 5, 500, S);
            assertThat(seen.last().action()).as("enforcing %d", percents[i]).isEqualTo(expected[i]);
            assertThat(seen.last().enforcement().drawMod100()).isEqualTo(57);
        }
    }

    @Test
    void drawsAreReadAsUnsigned() {
        // -1L is 2^64 - 1 unsigned, and 18446744073709551615 mod 100 = 15: enforced at 16, not at 15
        OutlierDetector at16 = detector(new ScriptedRandom(-1L, 0), 2, OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 16);
        respond(at16.hosts().get(0), 5, 500, S);
        assertThat(events.last().enforcement()).isEqualTo(new Enforcement(16, 15, true));
        OutlierDetector at15 = detector(new ScriptedRandom(-1L), 2, OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 15);
        respond(at15.hosts().get(0), 5, 500, S);
        assertThat(events.last().enforcement()).isEqualTo(new Enforcement(15, 15, false));
    }

    @Test
    void hundredAndZeroTakeNoEnforcementDraw() {
        // at 100 the only draw is the ejection's jitter; at 0 there is none at all
        CountingRandom always = new CountingRandom(99);
        OutlierDetector d100 = detector(always, 2);
        respond(d100.hosts().get(0), 5, 500, S);
        assertThat(events.last().action()).isEqualTo(EventAction.EJECT);
        assertThat(events.last().enforcement()).isEqualTo(new Enforcement(100, -1, true));
        assertThat(always.taken()).isEqualTo(1);

        CountingRandom never = new CountingRandom(0);
        OutlierDetector d0 = detector(never, 2, OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 0);
        respond(d0.hosts().get(0), 5, 500, S);
        assertThat(events.last().action()).isEqualTo(EventAction.UNENFORCED);
        assertThat(events.last().enforcement()).isEqualTo(new Enforcement(0, -1, false));
        assertThat(never.taken()).isZero();
    }

    @Test
    void anOverflowTakesNoDraw() {
        // one host at the default cap 10: 100 % > 10, refused before enforcement
        CountingRandom random = new CountingRandom(0);
        OutlierDetector d = new OutlierDetector(OutlierDetectionConfig.defaults(), random, events);
        respond(d.addHost("h0"), 5, 500, S);
        assertThat(events.last().action()).isEqualTo(EventAction.OVERFLOW);
        assertThat(random.taken()).isZero();
    }

    @Test
    void successRateEnforcementDrawsToo() {
        // enforcing_success_rate 50, draw 50 -> 50 is not < 50: detected, not enforced
        ScriptedRandom random = new ScriptedRandom(50);
        OutlierDetector d = detector(random, 5, OutlierSetting.ENFORCING_SUCCESS_RATE, 50);
        for (int i = 0; i < 4; i++) {
            respond(d.hosts().get(i), 100, 200, S);
        }
        HostMonitor h4 = d.hosts().get(4);
        for (int i = 0; i < 50; i++) {
            h4.putHttpResponseCode(500, S);
            h4.putHttpResponseCode(200, S);
        }
        d.tick(10 * S);
        assertThat(events.all)
                .extracting(OutlierEvent::action, OutlierEvent::type)
                .containsExactly(Tuple.tuple(EventAction.UNENFORCED, EjectionType.SUCCESS_RATE));
        assertThat(events.last().enforcement()).isEqualTo(new Enforcement(50, 50, false));
        assertThat(random.taken()).isEqualTo(1);
    }

    @Test
    void envoysJitterExample() {
        // max_ejection_time_jitter 10 s: 123456789 mod 10001 = 4445 (10001 * 12344 = 123452344), so 4.445 s
        ScriptedRandom random = new ScriptedRandom(123456789L);
        OutlierDetector d = detector(random, 1, OutlierSetting.MAX_EJECTION_TIME_JITTER, 10 * S);
        HostMonitor h = d.hosts().get(0);
        respond(h, 5, 500, 0);
        OutlierEvent e = events.last();
        assertThat(e.ejection().jitterNanos()).isEqualTo(4445 * MS);
        assertThat(h.jitterNanos()).isEqualTo(4445 * MS);
        // out for 30 s + 4.445 s: still out at the 30 s tick, back at the 40 s tick
        assertThat(e.ejection().durationNanos()).isEqualTo(34_445 * MS);
        d.tick(10 * S);
        d.tick(20 * S);
        d.tick(30 * S);
        assertThat(h.isEjected()).isTrue();
        d.tick(40 * S);
        assertThat(h.isEjected()).isFalse();
        assertThat(events.last().outForNanos()).isEqualTo(40 * S);
    }

    @Test
    void jitterIsZeroWhenNotConfiguredButStillDrawn() {
        // Envoy's EjectionTimeJitterIsZeroWhenNotConfigured: 1234567890 mod 1 = 0
        ScriptedRandom random = new ScriptedRandom(1234567890L);
        OutlierDetector d = detector(random, 1);
        respond(d.hosts().get(0), 5, 500, 0);
        assertThat(events.last().ejection().jitterNanos()).isZero();
        assertThat(random.taken()).isEqualTo(1);
    }

    @Test
    void theEnforcementDrawComesBeforeTheJitterDraw() {
        // enforcing 50, draws 49 then 123456789: 49 < 50 ejects and the jitter is 4445 ms. In the other order the
        // enforcement would see 123456789 mod 100 = 89 and refuse.
        ScriptedRandom random = new ScriptedRandom(49, 123456789L);
        OutlierDetector d = detector(
                random,
                1,
                OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
                50,
                OutlierSetting.MAX_EJECTION_TIME_JITTER,
                10 * S);
        respond(d.hosts().get(0), 5, 500, 0);
        assertThat(events.last().action()).isEqualTo(EventAction.EJECT);
        assertThat(events.last().ejection().jitterNanos()).isEqualTo(4445 * MS);
    }

    @Test
    void aReturnExactlyAtBasePlusJitterHappensAtThatTick() {
        // jitter 10 s and draw 10000 -> 10000 mod 10001 = 10000 ms: out for exactly 40 s, back at the 40 s tick
        OutlierDetector d = detector(new ScriptedRandom(10_000), 1, OutlierSetting.MAX_EJECTION_TIME_JITTER, 10 * S);
        HostMonitor h = d.hosts().get(0);
        respond(h, 5, 500, 0);
        d.tick(30 * S);
        assertThat(h.isEjected()).isTrue();
        d.tick(40 * S);
        assertThat(h.isEjected()).isFalse();
    }

    @Test
    void jitterIsDrawnAgainAtEveryEjection() {
        // jitter 1 s: 2500 mod 1001 = 498 ms, then 1001 mod 1001 = 0
        OutlierDetector d = detector(new ScriptedRandom(2500, 1001), 1, OutlierSetting.MAX_EJECTION_TIME_JITTER, S);
        HostMonitor h = d.hosts().get(0);
        respond(h, 5, 500, 0);
        assertThat(events.last().ejection().jitterNanos()).isEqualTo(498 * MS);
        d.tick(30 * S);
        d.tick(40 * S); // 30.498 s <= 40 s
        assertThat(h.isEjected()).isFalse();
        respond(h, 5, 500, 40 * S);
        assertThat(events.last().ejection().jitterNanos()).isZero();
        // multiplier 2 now: 60 s
        assertThat(events.last().ejection().durationNanos()).isEqualTo(60 * S);
    }
}
