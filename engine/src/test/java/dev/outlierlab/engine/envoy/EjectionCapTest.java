package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.config;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import dev.outlierlab.engine.envoy.event.CapCheck;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The ejection cap (spec 7.1): a host may go iff {@code 100 * (active + 1) / hosts <= max_ejection_percent}, or
 * always_eject_one_host and nothing is ejected. Driven with real detections: five 500s on every host.
 */
class EjectionCapTest {
    private static final int[] CAPS = {10, 20, 34, 50, 100};

    /**
     * Most hosts ejected at once, row = hosts (1..12), column = cap (10, 20, 34, 50, 100). Worked by hand: the
     * k-th ejection needs 100 * k / n <= cap, e.g. n = 6: 10 % -> 16.7 too much, 0; 20 % -> 16.7 ok, 33.3 not, 1;
     * 34 % -> 33.3 ok, 50 not, 2; 50 % -> 50 ok, 66.7 not, 3; n = 10, 10 % -> exactly 10 ok, 1.
     */
    private static final int[][] MAX_EJECTED = {
        // 10 20 34 50 100
        {0, 0, 0, 0, 1}, // 1 host: 100 % each
        {0, 0, 0, 1, 2}, // 2: 50, 100
        {0, 0, 1, 1, 3}, // 3: 33.3, 66.7, 100
        {0, 0, 1, 2, 4}, // 4: 25, 50, 75
        {0, 1, 1, 2, 5}, // 5: 20, 40, 60
        {0, 1, 2, 3, 6}, // 6: 16.7, 33.3, 50, 66.7
        {0, 1, 2, 3, 7}, // 7: 14.3, 28.6, 42.9, 57.1
        {0, 1, 2, 4, 8}, // 8: 12.5, 25, 37.5, 50, 62.5
        {0, 1, 3, 4, 9}, // 9: 11.1, 22.2, 33.3, 44.4, 55.6
        {1, 2, 3, 5, 10}, // 10: 10, 20, 30, 40, 50, 60
        {1, 2, 3, 5, 11}, // 11: 9.1, 18.2, 27.3, 36.4, 45.5, 54.5
        {1, 2, 4, 6, 12}, // 12: 8.3, 16.7, 25, 33.3, 41.7, 50, 58.3
    };

    /** The same with always_eject_one_host: a zero becomes one, everything else is unchanged. */
    private static final int[][] MAX_EJECTED_ALWAYS_ONE = {
        {1, 1, 1, 1, 1},
        {1, 1, 1, 1, 2},
        {1, 1, 1, 1, 3},
        {1, 1, 1, 2, 4},
        {1, 1, 1, 2, 5},
        {1, 1, 2, 3, 6},
        {1, 1, 2, 3, 7},
        {1, 1, 2, 4, 8},
        {1, 1, 3, 4, 9},
        {1, 2, 3, 5, 10},
        {1, 2, 3, 5, 11},
        {1, 2, 4, 6, 12},
    };

    private static OutlierDetector failEveryHost(int hosts, int cap, boolean alwaysOne, Events events) {
        OutlierDetector d = new OutlierDetector(
                config(OutlierSetting.MAX_EJECTION_PERCENT, cap, OutlierSetting.ALWAYS_EJECT_ONE_HOST, alwaysOne),
                new SeededRandom(7),
                events);
        List<HostMonitor> list = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            list.add(d.addHost("h" + i));
        }
        for (HostMonitor h : list) {
            respond(h, 5, 500, S);
        }
        return d;
    }

    @Test
    void mostHostsEjectedAtOnce() {
        for (int n = 1; n <= 12; n++) {
            for (int c = 0; c < CAPS.length; c++) {
                Events events = new Events();
                OutlierDetector d = failEveryHost(n, CAPS[c], false, events);
                int expected = MAX_EJECTED[n - 1][c];
                String where = n + " hosts, cap " + CAPS[c];
                assertThat(d.ejectedCount()).as(where).isEqualTo(expected);
                assertThat(d.stats().ejectionsActive()).as(where).isEqualTo(expected);
                assertThat(d.stats().ejectionsOverflow()).as(where).isEqualTo(n - expected);
                assertThat(d.stats().detected(EjectionType.CONSECUTIVE_5XX))
                        .as(where)
                        .isEqualTo(n);
                // the first hosts in order are the ones ejected
                assertThat(events.of(EventAction.EJECT))
                        .extracting(OutlierEvent::host)
                        .as(where)
                        .containsExactlyElementsOf(names(0, expected));
            }
        }
    }

    @Test
    void mostHostsEjectedAtOnceWithAlwaysEjectOneHost() {
        for (int n = 1; n <= 12; n++) {
            for (int c = 0; c < CAPS.length; c++) {
                OutlierDetector d = failEveryHost(n, CAPS[c], true, new Events());
                int expected = MAX_EJECTED_ALWAYS_ONE[n - 1][c];
                String where = n + " hosts, cap " + CAPS[c] + ", always_eject_one_host";
                assertThat(d.stats().ejectionsActive()).as(where).isEqualTo(expected);
                assertThat(d.stats().ejectionsOverflow()).as(where).isEqualTo(n - expected);
            }
        }
    }

    @Test
    void capZeroEjectsNothingUnlessAlwaysEjectOneHost() {
        assertThat(failEveryHost(5, 0, false, new Events()).ejectedCount()).isZero();
        assertThat(failEveryHost(5, 0, true, new Events()).ejectedCount()).isEqualTo(1);
        assertThat(failEveryHost(1, 0, true, new Events()).ejectedCount()).isEqualTo(1);
    }

    @Test
    void theSeedsSixHostsWithTheDefaultCapOverflowWithTheArithmeticOnTheEvent() {
        Events events = new Events();
        OutlierDetector d = new OutlierDetector(OutlierDetectionConfig.defaults(), new SeededRandom(1), events);
        HostMonitor h0 = d.addHost("h0");
        for (int i = 1; i < 6; i++) {
            d.addHost("h" + i);
        }
        respond(h0, 5, 500, S);
        OutlierEvent e = events.last();
        assertThat(e.action()).isEqualTo(EventAction.OVERFLOW);
        CapCheck cap = e.cap();
        // 100 * (0 + 1) / 6 = 16.67 > 10
        assertThat(cap.ejectedBefore()).isZero();
        assertThat(cap.hosts()).isEqualTo(6);
        assertThat(cap.percentIfEjected()).isCloseTo(16.667, Assertions.within(1e-3));
        assertThat(cap.maxEjectionPercent()).isEqualTo(10);
        assertThat(cap.allowed()).isFalse();
        assertThat(e.enforcement()).isNull();
        assertThat(e.ejection()).isNull();
        assertThat(d.stats().ejectionsOverflow()).isEqualTo(1);
        assertThat(d.stats().ejectionsEnforcedTotal()).isZero();
    }

    @Test
    void alwaysEjectOneHostAdmitsAnotherOnlyAfterTheFirstReturns() {
        // six hosts, cap 10: h0 goes under always_eject_one_host, h1 overflows while h0 is out; after h0
        // returns at 30 s, h1's next five 5xx eject it
        Events events = new Events();
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.ALWAYS_EJECT_ONE_HOST, true), new SeededRandom(1), events);
        List<HostMonitor> h = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            h.add(d.addHost("h" + i));
        }
        respond(h.get(0), 5, 500, 0);
        respond(h.get(1), 5, 500, S);
        assertThat(events.all)
                .extracting(OutlierEvent::host, OutlierEvent::action)
                .containsExactly(Tuple.tuple("h0", EventAction.EJECT), Tuple.tuple("h1", EventAction.OVERFLOW));
        assertThat(events.of(EventAction.EJECT).get(0).cap().alwaysEjectOneHost())
                .isTrue();
        for (long t = 10; t <= 30; t += 10) {
            d.tick(t * S);
        }
        assertThat(h.get(0).isEjected()).isFalse();
        respond(h.get(1), 5, 500, 31 * S);
        assertThat(h.get(1).isEjected()).isTrue();
        assertThat(d.ejectedCount()).isEqualTo(1);
    }

    @Test
    void removingHostsChangesTheDenominator() {
        // 11 hosts at cap 10: 100 * 1 / 11 = 9.1 admits one; the second would be 18.2
        Events events = new Events();
        OutlierDetector d = new OutlierDetector(OutlierDetectionConfig.defaults(), new SeededRandom(1), events);
        List<HostMonitor> h = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            h.add(d.addHost("h" + i));
        }
        respond(h.get(0), 5, 500, S);
        assertThat(d.ejectedCount()).isEqualTo(1);
        // with 10 hosts left, the next needs 100 * 2 / 10 = 20 > 10: still refused
        d.removeHost(h.get(10));
        respond(h.get(1), 5, 500, S);
        assertThat(events.last().action()).isEqualTo(EventAction.OVERFLOW);
        assertThat(events.last().cap().hosts()).isEqualTo(10);
        assertThat(events.last().cap().percentIfEjected()).isEqualTo(20.0);
    }

    private static List<String> names(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("h" + i);
        }
        return out;
    }
}
