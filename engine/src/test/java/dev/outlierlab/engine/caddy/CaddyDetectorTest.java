package dev.outlierlab.engine.caddy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Caddy's passive health checks, rule by rule, with their numbers. */
class CaddyDetectorTest {
    static final long S = Durations.SECOND;
    static final long MS = Durations.MILLISECOND;
    private final List<CaddyEvent> events = new ArrayList<>();
    private static final List<String> HOSTS = List.of("a:80", "b:80");

    private CaddyDetector detector(CaddyPassiveConfig config) {
        return new CaddyDetector(config, events::add);
    }

    @Test
    void fiveHundredsNeverCountWithoutUnhealthyStatus() {
        CaddyDetector d = detector(CaddyPassiveConfig.of(HOSTS, 10 * S, 1));
        for (int i = 0; i < 100; i++) {
            d.record(0, 503, i * MS);
        }
        assertThat(d.isEjected(0)).isFalse();
        d.record(0, Outcome.CONNECT_FAILED, S);
        assertThat(d.isEjected(0)).isTrue();
    }

    @Test
    void maxFailsDefaultsToOneWithFailDuration() {
        assertThat(CaddyPassiveConfig.of(HOSTS, 30 * S, 0).maxFails()).isEqualTo(1);
        assertThat(CaddyPassiveConfig.of(HOSTS, 0, 0).maxFails()).isZero();
    }

    @Test
    void theWindowSlidesFailureByFailure() {
        CaddyDetector d = detector(CaddyPassiveConfig.of(HOSTS, 10 * S, 3));
        d.record(0, Outcome.CONNECT_FAILED, 0);
        d.record(0, Outcome.CONNECT_FAILED, 4 * S);
        d.record(0, Outcome.CONNECT_FAILED, 8 * S);
        assertThat(d.isEjected(0)).isTrue();
        d.runDue(10 * S - 1);
        assertThat(d.isEjected(0)).isTrue();
        d.runDue(10 * S); // the failure at 0 s is forgotten: 2 remembered
        assertThat(d.isEjected(0)).isFalse();
        assertThat(d.fails(0)).isEqualTo(2);
        d.record(0, Outcome.CONNECT_FAILED, 11 * S); // 4, 8 and 11 s: out again
        assertThat(d.isEjected(0)).isTrue();
        d.runDue(14 * S);
        assertThat(d.isEjected(0)).isFalse();
        assertThat(events).extracting(CaddyEvent::timeNanos).containsExactly(8 * S, 10 * S, 11 * S, 14 * S);
    }

    @Test
    void aDeadHostGetsMaxFailsRequestsEveryFailDuration() {
        CaddyDetector d = detector(CaddyPassiveConfig.of(HOSTS, 2 * S, 3).withPolicy(CaddySelection.Policy.FIRST));
        CaddySelection first = new CaddySelection(CaddySelection.Policy.FIRST, () -> 0);
        int toDead = 0;
        for (long t = 0; t < 10 * S; t += 10 * MS) {
            d.runDue(t);
            int pick = first.select(d);
            if (pick == 0) {
                toDead++;
                d.record(0, Outcome.CONNECT_FAILED, t);
            } else {
                d.record(pick, 200, t);
            }
        }
        assertThat(toDead).isEqualTo(3 * 5); // a burst of 3 at 0, 2, 4, 6, 8 s
    }

    @Test
    void aSlowFiveHundredCountsTwice() {
        CaddyPassiveConfig c = CaddyPassiveConfig.of(HOSTS, 10 * S, 2).withPassive(10 * S, 2, List.of(5), 500 * MS);
        CaddyDetector d = detector(c);
        d.record(0, 503, 600 * MS, 0);
        assertThat(d.fails(0)).isEqualTo(2);
        assertThat(d.isEjected(0)).isTrue();
        d.record(1, 200, 600 * MS, 0); // slow alone: one
        assertThat(d.fails(1)).isEqualTo(1);
        assertThat(c.strikes(503, 0)).isEqualTo(1);
        assertThat(c.withPassive(S, 1, List.of(5, 503), 0).strikes(503, 0)).isEqualTo(2); // each matching entry
    }

    @Test
    void roundRobinLooksAtMostOnceAtEachUpstream() {
        CaddyDetector d = detector(CaddyPassiveConfig.of(List.of("a", "b", "c"), 10 * S, 1));
        CaddySelection rr = new CaddySelection(CaddySelection.Policy.ROUND_ROBIN, () -> 0);
        d.record(2, Outcome.CONNECT_FAILED, 0);
        StringBuilder picks = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            picks.append(rr.select(d));
        }
        assertThat(picks).hasToString("101010"); // counter 1, 2 (c out) 3, 4, 5 (c out) 6 ...
    }
}
