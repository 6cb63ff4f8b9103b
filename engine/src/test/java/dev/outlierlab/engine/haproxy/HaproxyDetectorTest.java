package dev.outlierlab.engine.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** HAProxy's observe / error-limit / on-error and check health, rule by rule, with their numbers. */
class HaproxyDetectorTest {
    static final long S = Durations.SECOND;
    static final long MS = Durations.MILLISECOND;
    private final List<HaproxyEvent> events = new ArrayList<>();

    private HaproxyDetector detector(HaproxyDetector.HealthEndpoint health, HaproxyServer... servers) {
        return new HaproxyDetector(List.of(servers), health, events::add);
    }

    private static HaproxyServer observed(String name, int limit, OnError onError) {
        return HaproxyServer.checked(name, name + ":80").observing(Observe.LAYER7, limit, onError);
    }

    @Test
    void observeWithoutCheckNeverActs() {
        HaproxyDetector d = detector(
                (s, t) -> true,
                observed("a", 10, OnError.MARK_DOWN).withCheck(false),
                observed("b", 10, OnError.MARK_DOWN));
        for (int i = 0; i < 1000; i++) {
            d.record(0, 503, i * MS);
        }
        assertThat(d.isEjected(0)).isFalse();
        assertThat(d.trips()).isZero();
    }

    @Test
    void onlyConsecutiveErrorsCount() {
        HaproxyDetector d = detector(null, observed("a", 10, OnError.MARK_DOWN));
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 9; i++) {
                d.record(0, 503, 0);
            }
            d.record(0, 200, 0);
        }
        assertThat(d.trips()).isZero();
        assertThat(d.consecutiveErrors(0)).isZero();
        d.record(0, 503, 0);
        assertThat(d.consecutiveErrors(0)).isEqualTo(1);
    }

    @Test
    void failCheckWithAPassingHealthEndpointHoldsBelowFifteenErrorsASecond() {
        // a passes its checks at 0, 2, 4 ... s: each clears the count and restores health 4 (rise 2 + fall 3 - 1)
        HaproxyDetector slow = detector((s, t) -> true, observed("a", 10, OnError.FAIL_CHECK));
        for (long t = 0; t < 20 * S; t += 100 * MS) { // 10 errors a second: 2 trips between two checks
            slow.record(0, 503, t);
        }
        assertThat(slow.trips()).isEqualTo(20);
        assertThat(events).isEmpty();
        HaproxyDetector fast = detector((s, t) -> true, observed("a", 10, OnError.FAIL_CHECK));
        for (long t = 0; t < 20 * S; t += 50 * MS) { // 20 a second: the third trip in 1.5 s takes it DOWN
            fast.runDue(t);
            if (!fast.isEjected(0)) { // HAProxy sends nothing to a DOWN server
                fast.record(0, 503, t);
            }
        }
        assertThat(events.get(0).down()).isTrue();
        assertThat(events.get(0).timeNanos()).isEqualTo(1450 * MS);
        // and it comes back: checks at 2 s (health 1, still DOWN) and 4 s (health 4, UP): it flaps
        assertThat(events.get(1).down()).isFalse();
        assertThat(events.get(1).timeNanos()).isEqualTo(4 * S);
        assertThat(events.get(2).timeNanos()).isEqualTo(5450 * MS);
    }

    @Test
    void markDownActsAtOnceAndPassingChecksBringTheServerBack() {
        HaproxyServer a = observed("a", 3, OnError.MARK_DOWN).withTimers(2 * S, 500 * MS, 0, 2, 3);
        HaproxyDetector d = detector((s, t) -> true, a);
        d.record(0, 503, 10 * MS);
        d.record(0, 503, 20 * MS);
        d.record(0, 503, 30 * MS);
        assertThat(d.isEjected(0)).isTrue();
        assertThat(d.health(0)).isZero();
        // the trip pulled the next check to 30 ms + fastinter; DOWN at health 0 checks every downinter (= inter)
        d.runDue(530 * MS);
        assertThat(d.health(0)).isEqualTo(1);
        assertThat(d.isEjected(0)).isTrue();
        d.runDue(530 * MS + 500 * MS);
        assertThat(d.isEjected(0)).isFalse(); // the second pass: UP, 1 s after it went DOWN
        assertThat(events)
                .extracting(HaproxyEvent::reason)
                .containsExactly(HaproxyEvent.Reason.OBSERVED_ERRORS, HaproxyEvent.Reason.CHECK_PASSED);
    }

    @Test
    void suddenDeathLeavesTheServerUpAtRiseThenTheNextTripTakesItDown() {
        HaproxyDetector d = detector((s, t) -> true, observed("a", 2, OnError.SUDDEN_DEATH));
        d.runDue(0); // first check passes: health 4
        assertThat(d.health(0)).isEqualTo(4);
        d.record(0, 503, MS);
        d.record(0, 503, MS);
        assertThat(d.health(0)).isEqualTo(2);
        assertThat(d.isEjected(0)).isFalse();
        d.record(0, 503, MS);
        d.record(0, 503, MS);
        assertThat(d.isEjected(0)).isTrue();
    }

    @Test
    void aServerStartsOneFailedCheckFromDown() {
        HaproxyDetector d = detector(null, observed("a", 10, OnError.FAIL_CHECK));
        assertThat(d.health(0)).isEqualTo(2);
        for (int i = 0; i < 10; i++) {
            d.record(0, 503, 0);
        }
        assertThat(d.isEjected(0)).isTrue();
    }

    @Test
    void recoveryIsOnlyThroughChecksSoAHealthEndpointSharingTheFaultKeepsItDown() {
        HaproxyDetector d = detector((s, t) -> false, observed("a", 3, OnError.MARK_DOWN));
        for (int i = 0; i < 3; i++) {
            d.record(0, 503, 0);
        }
        d.runDue(600 * S);
        assertThat(d.isEjected(0)).isTrue();
        assertThat(d.checksRun()).isEqualTo(301); // every 2 s from 0 s to 600 s
    }

    @Test
    void layer4CountsOnlyFailedConnections() {
        HaproxyServer a = HaproxyServer.checked("a", "a:80").observing(Observe.LAYER4, 2, OnError.MARK_DOWN);
        HaproxyDetector d = detector(null, a);
        for (int i = 0; i < 100; i++) {
            d.record(0, 503, 0);
            d.record(0, Outcome.TIMEOUT, 0);
        }
        assertThat(d.isEjected(0)).isFalse();
        d.record(0, Outcome.CONNECT_FAILED, 0);
        d.record(0, Outcome.CONNECT_FAILED, 0);
        assertThat(d.isEjected(0)).isTrue();
    }

    @Test
    void layer7Counts500To504ButNot501Or505() {
        HaproxyDetector d = detector(null, observed("a", 2, OnError.MARK_DOWN));
        for (int i = 0; i < 50; i++) {
            d.record(0, 501, 0);
            d.record(0, 505, 0);
            d.record(0, 404, 0);
        }
        assertThat(d.trips()).isZero();
        d.record(0, 500, 0);
        d.record(0, 504, 0);
        assertThat(d.trips()).isEqualTo(1);
    }

    @Test
    void checkTimersFollowTheHealth() {
        HaproxyServer a = observed("a", 10, OnError.FAIL_CHECK).withTimers(2 * S, 300 * MS, 5 * S, 2, 3);
        HaproxyDetector d = detector(null, a);
        assertThat(d.interNanos(0)).isEqualTo(300 * MS); // health 2 of 4: between, fastinter
        d.applyCheck(0, true, 0);
        assertThat(d.interNanos(0)).isEqualTo(2 * S); // fully healthy: inter
        d.applyCheck(0, false, S);
        d.applyCheck(0, false, S);
        d.applyCheck(0, false, S);
        assertThat(d.isEjected(0)).isTrue();
        assertThat(d.interNanos(0)).isEqualTo(5 * S); // DOWN: downinter
    }

    @Test
    void aTripVoidsTheCheckInFlightSoItsPassNeitherRestoresHealthNorClearsErrors() {
        HaproxyDetector d = detector(null, observed("a", 2, OnError.FAIL_CHECK));
        d.applyCheck(0, true, 0); // health 4 of 4
        d.record(0, 503, 5 * MS);
        d.record(0, 503, 10 * MS); // first trip: health 3
        d.record(0, 503, 18 * MS); // one error before the check starts
        d.record(0, 503, 20 * MS); // second trip, while a check started at 15 ms is in flight: health 2
        d.record(0, 503, 24 * MS); // one error counted
        assertThat(d.applyCheck(0, true, 15 * MS, 25 * MS)).isFalse(); // its answer is never read
        assertThat(d.health(0)).isEqualTo(2);
        assertThat(d.consecutiveErrors(0)).isEqualTo(1);
        d.record(0, 503, 30 * MS); // third trip: DOWN
        assertThat(d.isEjected(0)).isTrue();
        assertThat(events).extracting(HaproxyEvent::timeNanos).containsExactly(30 * MS);
        assertThat(d.checksVoided()).isEqualTo(1);
        assertThat(d.checksRun()).isEqualTo(2);
    }

    @Test
    void theSameCheckReadBeforeTheTripOrStartedAfterItCounts() {
        HaproxyDetector read = detector(null, observed("a", 2, OnError.FAIL_CHECK));
        read.applyCheck(0, true, 0);
        read.record(0, 503, 5 * MS);
        read.record(0, 503, 10 * MS); // health 3
        read.record(0, 503, 18 * MS);
        assertThat(read.applyCheck(0, true, 15 * MS, 19 * MS)).isTrue(); // health 4, errors cleared
        read.record(0, 503, 20 * MS);
        read.record(0, 503, 24 * MS); // trip: health 3
        read.record(0, 503, 30 * MS);
        assertThat(read.health(0)).isEqualTo(3);
        assertThat(read.isEjected(0)).isFalse();
        HaproxyDetector after = detector(null, observed("a", 2, OnError.FAIL_CHECK));
        after.record(0, 503, 5 * MS);
        after.record(0, 503, 10 * MS); // a trip from health 2 (one failed check from DOWN): DOWN
        assertThat(after.applyCheck(0, true, 11 * MS, 20 * MS)).isTrue();
        assertThat(after.health(0)).isEqualTo(1);
    }

    @Test
    void onErrorFastinterSetsNoCheckStatusSoItVoidsNothing() {
        HaproxyServer a = observed("a", 2, OnError.FASTINTER).withTimers(2 * S, 100 * MS, 0, 2, 3);
        HaproxyDetector d = detector(null, a);
        d.record(0, 503, 5 * MS);
        d.record(0, 503, 10 * MS);
        assertThat(d.trips()).isEqualTo(1);
        assertThat(d.applyCheck(0, true, 0, 20 * MS)).isTrue();
        assertThat(d.health(0)).isEqualTo(4);
        assertThat(d.checksVoided()).isZero();
    }
}
