package dev.outlierlab.engine.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.Outcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** nginx's round-robin passive checks, rule by rule, with their numbers. */
class NginxDetectorTest {
    static final long S = Durations.SECOND;
    static final long MS = Durations.MILLISECOND;
    private final List<NginxEvent> events = new ArrayList<>();

    private NginxDetector detector(NextUpstream next, NginxServer... servers) {
        return new NginxDetector(new NginxUpstreamConfig("backend", List.of(servers), next, 1, false), 0, events::add);
    }

    private static NginxServer server(String name, int maxFails, long failTimeout) {
        return new NginxServer(name, 1, maxFails, failTimeout, false);
    }

    private static NextUpstream listing(int mask) {
        return new NextUpstream(NextUpstream.ERROR | NextUpstream.TIMEOUT | mask, 0);
    }

    @Test
    void unlistedFiveHundredsNeverCountAndEveryOneReachesTheClient() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), NginxServer.of("b"));
        int errors = 0;
        for (int i = 0; i < 100; i++) {
            int status = d.request(i * 100 * MS, (peer, attempt) -> peer == 0 ? 503 : 200);
            errors += status == 503 ? 1 : 0;
        }
        assertThat(errors).isEqualTo(50);
        assertThat(events).isEmpty();
        assertThat(d.peers().fails(0)).isZero();
    }

    @Test
    void listingTheStatusRetriesItAwayAndEjectsTheServer() {
        NginxDetector d = detector(listing(NextUpstream.HTTP_503), NginxServer.of("a"), NginxServer.of("b"));
        int errors = 0;
        int attemptsToA = 0;
        for (int i = 0; i < 200; i++) { // 20 s at 10 requests a second
            int[] toA = {0};
            int status = d.request(i * 100 * MS, (peer, attempt) -> {
                toA[0] += peer == 0 ? 1 : 0;
                return peer == 0 ? 503 : 200;
            });
            attemptsToA += toA[0];
            errors += status >= 500 ? 1 : 0;
        }
        assertThat(errors).isZero();
        // out at 0 s, selectable again from second 11 (0 + 10 + 1): one probe then; the next at 22 s is past the run
        assertThat(attemptsToA).isEqualTo(2);
        assertThat(events)
                .extracting(NginxEvent::action, NginxEvent::reason, NginxEvent::timeNanos)
                .containsExactly(
                        tuple(NginxEvent.Action.EJECT, NginxEvent.Reason.MAX_FAILS, 0L),
                        tuple(NginxEvent.Action.UNEJECT, NginxEvent.Reason.FAIL_TIMEOUT, 11 * S),
                        tuple(NginxEvent.Action.EJECT, NginxEvent.Reason.PROBE_FAILED, 11 * S + 200 * MS));
        // the probe waits two requests: the failure cut a's effective_weight to 0 (1 - 1 / 1), and smooth
        // weighted round robin gives it back one per selection, so b still wins at 11.0 s and 11.1 s
    }

    @Test
    void aFiveHundredOnTheLastTryNeverCounts() {
        NginxDetector d = detector(listing(NextUpstream.HTTP_503), NginxServer.of("a"), NginxServer.of("b"));
        int status = d.request(0, (peer, attempt) -> 503);
        assertThat(status).isEqualTo(503);
        assertThat(d.lastAttempts()).isEqualTo(2);
        assertThat(d.peers().fails(0)).isEqualTo(1); // the first try, with one more left
        assertThat(d.peers().fails(1)).isZero(); // the last try: passed to the client, freed as a success
        assertThat(d.isEjected(0)).isTrue();
        assertThat(d.isEjected(1)).isFalse();
    }

    @Test
    void oneTryLeavesEveryListedStatusUncounted() {
        NginxDetector d =
                detector(new NextUpstream(NextUpstream.HTTP_503, 1), NginxServer.of("a"), NginxServer.of("b"));
        for (int i = 0; i < 10; i++) {
            d.record(0, 503, i * S);
        }
        assertThat(d.peers().fails(0)).isZero();
        assertThat(d.isEjected(0)).isFalse();
    }

    @Test
    void maxFailsThreeIsNotThreeInARow() {
        NginxDetector d = detector(listing(NextUpstream.HTTP_503), server("a", 3, 10), server("b", 3, 10));
        d.record(0, 503, 0);
        d.record(0, 503, 1 * S);
        d.record(0, 200, 2 * S); // within fail_timeout of the last failure: checked does not move, no reset
        assertThat(d.peers().fails(0)).isEqualTo(2);
        d.record(0, 503, 3 * S);
        assertThat(d.isEjected(0)).isTrue();
        assertThat(events.get(0).fails()).isEqualTo(3);
    }

    @Test
    void theSameBurstsThirteenSecondsApartNeverEject() {
        NginxDetector d = detector(listing(NextUpstream.HTTP_503), server("a", 3, 10), server("b", 3, 10));
        for (int burst = 0; burst < 5; burst++) {
            long start = burst * 13 * S;
            d.record(0, 503, start);
            d.record(0, 503, start);
            for (long t = start + S; t < start + 13 * S; t += S) {
                d.record(0, 200, t); // the success selected 11 s after the burst moves checked and resets
            }
        }
        assertThat(events).isEmpty();
        assertThat(d.peers().fails(0)).isZero();
    }

    @Test
    void anEjectionLastsBetweenFailTimeoutAndOneSecondMore() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), NginxServer.of("b"));
        d.record(0, Outcome.CONNECT_FAILED, 5 * S + 900 * MS);
        d.record(1, Outcome.CONNECT_FAILED, 7 * S);
        assertThat(events.get(0).returnAtNanos()).isEqualTo(16 * S); // out 10.1 s
        assertThat(events.get(1).returnAtNanos()).isEqualTo(18 * S); // out 11 s
        d.runDue(16 * S - 1);
        assertThat(d.isEjected(0)).isTrue();
        d.runDue(16 * S);
        assertThat(d.isEjected(0)).isFalse();
        assertThat(d.isEjected(1)).isTrue();
    }

    @Test
    void theProbeIsOneRequestAndItsSuccessClearsTheCount() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), NginxServer.of("b"));
        d.record(0, Outcome.CONNECT_FAILED, 0);
        assertThat(d.request(5 * S, (peer, attempt) -> 200)).isEqualTo(200);
        assertThat(d.peers().fails(0)).isEqualTo(1);
        // from 11 s a is selectable; the probe's selection moves checked, its success clears fails
        int[] sentTo = new int[2];
        for (int i = 0; i < 4; i++) {
            d.request(11 * S + i * MS, (peer, attempt) -> {
                sentTo[peer]++;
                return 200;
            });
        }
        assertThat(sentTo).containsExactly(2, 2);
        assertThat(d.peers().fails(0)).isZero();
    }

    @Test
    void aOneServerUpstreamIsNeverEjected() {
        NginxDetector d = detector(listing(NextUpstream.HTTP_503), NginxServer.of("only"));
        for (int i = 0; i < 50; i++) {
            assertThat(d.request(i * 10 * MS, (peer, attempt) -> Outcome.CONNECT_FAILED))
                    .isEqualTo(502);
        }
        assertThat(d.peers().fails(0)).isZero();
        assertThat(events).isEmpty();
    }

    @Test
    void everyPeerOutAnswers502EvenAfterTheBackendsRecover() {
        NginxDetector d = detector(NextUpstream.defaults(), NginxServer.of("a"), NginxServer.of("b"));
        assertThat(d.request(0, (peer, attempt) -> Outcome.CONNECT_FAILED)).isEqualTo(502);
        assertThat(d.lastAttempts()).isEqualTo(2);
        assertThat(d.isEjected(0)).isTrue();
        assertThat(d.isEjected(1)).isTrue();
        int live = 0;
        for (int i = 1; i <= 100; i++) { // the backends answer 200 again from 0.1 s on
            int status = d.request(i * 100 * MS, (peer, attempt) -> 200);
            live += status == 200 ? 1 : 0;
        }
        assertThat(live).isEqualTo(0); // 0.1 s to 10 s: "no live upstreams"
        assertThat(d.noLiveUpstreams()).isEqualTo(100);
        assertThat(d.request(11 * S, (peer, attempt) -> 200)).isEqualTo(200);
    }

    @Test
    void maxFailsZeroTurnsAccountingOff() {
        NginxDetector d = detector(NextUpstream.defaults(), server("a", 0, 10), server("b", 0, 10));
        for (int i = 0; i < 20; i++) {
            d.record(0, Outcome.TIMEOUT, i * MS);
        }
        assertThat(d.isEjected(0)).isFalse();
        assertThat(d.peers().fails(0)).isEqualTo(20);
        assertThat(d.peers().effectiveWeight(0)).isEqualTo(1);
    }

    @Test
    void errorsCountEvenWithRetriesOffAndReachTheClientAs502Or504() {
        NginxDetector d = detector(new NextUpstream(NextUpstream.OFF, 0), server("a", 2, 10), server("b", 2, 10));
        assertThat(d.request(0, (peer, attempt) -> Outcome.CONNECT_FAILED)).isEqualTo(502);
        assertThat(d.lastAttempts()).isEqualTo(1);
        assertThat(d.request(0, (peer, attempt) -> Outcome.TIMEOUT)).isEqualTo(504);
        assertThat(d.peers().fails(0) + d.peers().fails(1)).isEqualTo(2);
    }

    @Test
    void listed404IsRetriedButNotAFailure() {
        NginxDetector d = detector(listing(NextUpstream.HTTP_404), NginxServer.of("a"), NginxServer.of("b"));
        assertThat(d.request(0, (peer, attempt) -> peer == 0 ? 404 : 200)).isEqualTo(200);
        assertThat(d.lastAttempts()).isEqualTo(2);
        assertThat(d.peers().fails(0)).isZero();
    }

    @Test
    void smoothWeightedRoundRobinInterleavesByWeight() {
        NginxDetector d = detector(
                NextUpstream.defaults(),
                new NginxServer("a", 5, 1, 10, false),
                new NginxServer("b", 1, 1, 10, false),
                new NginxServer("c", 1, 1, 10, false));
        StringBuilder order = new StringBuilder();
        for (int i = 0; i < 7; i++) {
            d.request(i * MS, (peer, attempt) -> {
                order.append((char) ('a' + peer));
                return 200;
            });
        }
        assertThat(order).hasToString("aabacaa"); // nginx's own example for weights 5, 1, 1
    }

    @Test
    void aFailureCutsTheEffectiveWeightByWeightOverMaxFailsAndSelectionsRestoreIt() {
        NginxDetector d = detector(
                NextUpstream.defaults(),
                new NginxServer("a", 10, 4, 10, false),
                new NginxServer("b", 10, 4, 10, false));
        d.record(0, Outcome.CONNECT_FAILED, 0);
        assertThat(d.peers().effectiveWeight(0)).isEqualTo(10 - 10 / 4);
        d.record(0, Outcome.CONNECT_FAILED, 0);
        assertThat(d.peers().effectiveWeight(0)).isEqualTo(6);
        // every selection that considers it gives one back
        d.request(S, (peer, attempt) -> 200);
        assertThat(d.peers().effectiveWeight(0)).isEqualTo(7);
        // weight 1 with max_fails 2: 1 / 2 is 0, no penalty at all
        NginxDetector w1 = detector(NextUpstream.defaults(), server("a", 2, 10), server("b", 2, 10));
        w1.record(0, Outcome.CONNECT_FAILED, 0);
        assertThat(w1.peers().effectiveWeight(0)).isEqualTo(1);
    }

    @Test
    void withoutZoneEachWorkerCountsAlone() {
        NginxUpstreamConfig config = new NginxUpstreamConfig(
                "backend", List.of(server("a", 2, 10), server("b", 2, 10)), NextUpstream.defaults(), 2, false);
        assertThat(config.detectors()).isEqualTo(2);
        assertThat(config.withWorkers(2, true).detectors()).isEqualTo(1);
        NginxDetector w0 = new NginxDetector(config, 0, events::add);
        NginxDetector w1 = new NginxDetector(config, 1, events::add);
        // four failures alternating between the workers: each has seen two, so each ejects at its own second
        w0.record(0, Outcome.CONNECT_FAILED, 0);
        w1.record(0, Outcome.CONNECT_FAILED, 0);
        assertThat(w0.isEjected(0) || w1.isEjected(0)).isFalse();
        w0.record(0, Outcome.CONNECT_FAILED, 0);
        w1.record(0, Outcome.CONNECT_FAILED, 0);
        assertThat(events).extracting(NginxEvent::worker).containsExactly(0, 1);
    }
}
