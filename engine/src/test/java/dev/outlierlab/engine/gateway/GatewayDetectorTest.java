package dev.outlierlab.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.EjectionListener;
import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.ScheduledWork;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The gateway detector's rules (docs/gateway.md), one at a time, with their numbers. */
class GatewayDetectorTest {
    static final long S = Durations.SECOND;
    private final List<GatewayEvent> events = new ArrayList<>();

    static GatewayConfig config(StageMode mode, PeerSet peers, double minStdev, int consecutive) {
        GatewayConfig d = GatewayConfig.defaults();
        return new GatewayConfig(
                mode,
                d.windowNanos(),
                d.bucketNanos(),
                d.minRequests(),
                d.stdevFactor(),
                peers,
                minStdev,
                consecutive,
                d.ejectionTimeNanos(),
                1);
    }

    private GatewayDetector detector(int endpoints, GatewayConfig config) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < endpoints; i++) {
            names.add("e" + i);
        }
        return new GatewayDetector(config, names, 0, events::add);
    }

    private static void repeat(GatewayDetector d, int endpoint, int times, int outcome, long t) {
        for (int i = 0; i < times; i++) {
            d.record(endpoint, outcome, t);
        }
    }

    @Test
    void thirdConsecutive5xxEjectsForThirtySecondsWithTheCount() {
        GatewayDetector d = detector(2, GatewayConfig.defaults());
        d.record(0, 503, S);
        d.record(0, 500, 2 * S);
        assertThat(d.isEjected(0)).isFalse();
        d.record(0, Outcome.TIMEOUT, 3 * S);
        assertThat(d.isEjected(0)).isTrue();
        assertThat(events)
                .containsExactly(new GatewayEvent(
                        3 * S,
                        0,
                        0,
                        "e0",
                        GatewayAction.EJECT,
                        EjectionReason.CONSECUTIVE,
                        new ConsecutiveTrip(3, 3),
                        33 * S,
                        0));
        assertThat(d.consecutiveFailures(0)).isZero();
        assertThat(d.nextDueNanos()).isEqualTo(33 * S);
    }

    @Test
    void anyEjectedFollowsEjectionsAndReturns() {
        GatewayDetector d = detector(2, GatewayConfig.defaults());
        assertThat(d.anyEjected()).isFalse();
        repeat(d, 1, 3, 503, S);
        assertThat(d.anyEjected()).isTrue();
        d.runDue(31 * S);
        assertThat(d.isEjected(1)).isFalse();
        assertThat(d.anyEjected()).isFalse();
    }

    @Test
    void aSuccessResetsTheCountAnd4xxAnd429AreSuccesses() {
        GatewayDetector d = detector(1, GatewayConfig.defaults());
        d.record(0, 503, S);
        d.record(0, 503, S);
        d.record(0, 429, S);
        d.record(0, 503, S);
        d.record(0, 503, S);
        d.record(0, 400, S);
        assertThat(d.consecutiveFailures(0)).isZero();
        assertThat(d.isEjected(0)).isFalse();
        assertThat(d.window(0).attempts()).isEqualTo(6);
        assertThat(d.window(0).failures()).isEqualTo(4);
    }

    @Test
    void localFailuresFailAndConnectSignalsAreNotAttempts() {
        GatewayDetector d = detector(1, config(StageMode.PROD, PeerSet.ALL, 1.0, 10));
        d.record(0, Outcome.CONNECT_FAILED, S);
        d.record(0, Outcome.RESET, S);
        d.record(0, Outcome.CONNECT_SUCCESS, S);
        d.record(0, Outcome.CONNECT_SUCCESS_FINAL, S);
        assertThat(d.window(0).attempts()).isEqualTo(2);
        assertThat(d.consecutiveFailures(0)).isEqualTo(2);
    }

    @Test
    void hardTripOffWithZero() {
        GatewayDetector d = detector(1, config(StageMode.PROD, PeerSet.ALL, 1.0, 0));
        repeat(d, 0, 50, 503, S);
        assertThat(d.isEjected(0)).isFalse();
        assertThat(d.consecutiveFailures(0)).isEqualTo(50);
    }

    @Test
    void returnsAtTheFirstLookAtOrAfterItsTimeWithAnEmptyWindowAndCount() {
        GatewayDetector d = detector(2, GatewayConfig.defaults());
        repeat(d, 0, 3, 503, 10 * S);
        d.record(0, 503, 11 * S);
        assertThat(d.consecutiveFailures(0)).isEqualTo(1);
        assertThat(d.window(0).attempts()).isEqualTo(4);
        d.runDue(40 * S - 1);
        assertThat(d.isEjected(0)).isTrue();
        d.record(1, 200, 41 * S);
        assertThat(d.isEjected(0)).isFalse();
        assertThat(events.get(1))
                .isEqualTo(new GatewayEvent(41 * S, 0, 0, "e0", GatewayAction.RETURN, null, null, 40 * S, 31 * S));
        assertThat(d.window(0).attempts()).isZero();
        assertThat(d.consecutiveFailures(0)).isZero();
        assertThat(d.nextDueNanos()).isEqualTo(ScheduledWork.NEVER);
    }

    @Test
    void anEjectedEndpointsOutcomesAreCountedButNotJudged() {
        GatewayDetector d = detector(2, GatewayConfig.defaults());
        repeat(d, 0, 3, 503, S);
        repeat(d, 0, 6, 503, 2 * S);
        assertThat(events).hasSize(1);
        assertThat(d.window(0).attempts()).isEqualTo(9);
    }

    @Test
    void sixEndpointsOneBadEjectedByTheStatisticalRuleAtItsFifthAttempt() {
        GatewayDetector d = detector(6, GatewayConfig.defaults());
        for (int e = 1; e < 6; e++) {
            repeat(d, e, 10, 200, S);
        }
        int[] pattern = {200, 200, 503, 200, 200};
        for (int k = 0; k < 4; k++) {
            d.record(0, pattern[k], 2 * S);
        }
        assertThat(events).isEmpty();
        d.record(0, pattern[4], 2 * S);
        assertThat(events).hasSize(1);
        GatewayEvent e = events.get(0);
        assertThat(e.reason()).isEqualTo(EjectionReason.SUCCESS_RATE);
        SuccessRateJudgement j = (SuccessRateJudgement) e.evidence();
        // rates 80, 100 x 5: mean 96.667, stdev sqrt(((80-96.667)^2 + 5 (100-96.667)^2) / 6) = 7.4536
        assertThat(j.ratePercent()).isEqualTo(80.0);
        assertThat(j.attempts()).isEqualTo(5);
        assertThat(j.failures()).isEqualTo(1);
        assertThat(j.meanPercent()).isCloseTo(96.6667, within(1e-4));
        assertThat(j.stdevPercent()).isCloseTo(7.4536, within(1e-4));
        assertThat(j.thresholdPercent()).isCloseTo(81.7595, within(1e-4));
        assertThat(j.scored()).isEqualTo(6);
        assertThat(j.peers()).isEqualTo(6);
    }

    @Test
    void twoToFourEndpointsNeverEjectStatisticallyWithPeerSetAllWhateverTheRates() {
        Random random = new Random(4);
        for (int run = 0; run < 300; run++) {
            events.clear();
            int n = 2 + random.nextInt(3);
            GatewayDetector d = detector(n, config(StageMode.PROD, PeerSet.ALL, 0.0, 0));
            for (int k = 0; k < 400; k++) {
                int e = random.nextInt(n);
                int failPercent = e == 0 ? 100 : random.nextInt(100);
                d.record(e, random.nextInt(100) < failPercent ? 503 : 200, k * 10_000_000L);
            }
            assertThat(events).as("run %d with %d endpoints", run, n).isEmpty();
        }
    }

    @Test
    void fiveEndpointsOneAtZeroIsAnExactTieAndNotEjected() {
        GatewayDetector d = detector(5, config(StageMode.PROD, PeerSet.ALL, 1.0, 0));
        for (int e = 1; e < 5; e++) {
            repeat(d, e, 5, 200, S);
        }
        repeat(d, 0, 5, 503, S);
        // rates 0, 100 x 4: mean 80, stdev 40, threshold 80 - 2 * 40 = 0: 0 is not strictly below 0
        assertThat(events).isEmpty();
    }

    @Test
    void peerSetOthersComparesWithTheOtherEndpointsOnly() {
        GatewayDetector floor = detector(2, config(StageMode.PROD, PeerSet.OTHERS, 1.0, 0));
        repeat(floor, 1, 10, 200, S);
        repeat(floor, 0, 6, 200, S);
        repeat(floor, 0, 3, 503, S);
        // one peer at 100 %: stdev 0 is below min_stdev 1, so no judgement fires
        assertThat(events).isEmpty();

        GatewayDetector noFloor = detector(2, config(StageMode.PROD, PeerSet.OTHERS, 0.0, 0));
        repeat(noFloor, 1, 10, 200, S);
        repeat(noFloor, 0, 4, 200, S);
        noFloor.record(0, 503, S);
        // 4 of 5 = 80 % against a peer at 100 % with stdev 0: the threshold is 100, and 80 is below it
        SuccessRateJudgement j = (SuccessRateJudgement) events.get(0).evidence();
        assertThat(j.ratePercent()).isEqualTo(80.0);
        assertThat(j.meanPercent()).isEqualTo(100.0);
        assertThat(j.stdevPercent()).isEqualTo(0.0);
        assertThat(j.thresholdPercent()).isEqualTo(100.0);
        assertThat(j.scored()).isEqualTo(2);
        assertThat(j.peers()).isEqualTo(1);
    }

    @Test
    void endpointsBelowMinRequestsAndEjectedOnesAreNotScored() {
        GatewayDetector d = detector(6, config(StageMode.PROD, PeerSet.ALL, 1.0, 3));
        repeat(d, 5, 3, 503, S);
        assertThat(d.isEjected(5)).isTrue();
        for (int e = 1; e < 4; e++) {
            repeat(d, e, 10, 200, S);
        }
        repeat(d, 4, 4, 200, S);
        d.record(0, 200, S);
        d.record(0, 503, S);
        d.record(0, 200, S);
        d.record(0, 503, S);
        d.record(0, 200, S);
        // scored: e0 (60 %), e1..e3 (100 %); e4 has 4 attempts, e5 is ejected. 4 endpoints: never fires
        assertThat(events).hasSize(1);
        repeat(d, 4, 1, 200, S);
        d.record(0, 200, S);
        // now 5 scored: e0 at 4/6 = 66.67 %, mean 93.33, stdev 13.33, threshold mean - 2 stdev = 66.67 exactly
        // in real numbers: a tie that doubles decide, and here they put the threshold one rounding step above
        assertThat(events).hasSize(2);
        SuccessRateJudgement j = (SuccessRateJudgement) events.get(1).evidence();
        assertThat(j.scored()).isEqualTo(5);
        assertThat(j.ratePercent()).isEqualTo(4 * 100.0 / 6);
        assertThat(j.thresholdPercent()).isGreaterThan(j.ratePercent()).isCloseTo(j.ratePercent(), within(1e-12));
    }

    @Test
    void shadowReportsWouldEjectAndHoldsAVirtualEjection() {
        GatewayDetector d = detector(2, config(StageMode.SHADOW, PeerSet.ALL, 1.0, 3));
        List<String> heard = new ArrayList<>();
        d.addEjectionListener(new EjectionListener() {
            @Override
            public void onEjected(int endpoint, long nowNanos) {
                heard.add("out " + endpoint);
            }

            @Override
            public void onReturned(int endpoint, long nowNanos) {
                heard.add("back " + endpoint);
            }
        });
        repeat(d, 1, 3, 502, S);
        assertThat(events.get(0).action()).isEqualTo(GatewayAction.WOULD_EJECT);
        assertThat(d.isEjected(1)).isTrue();
        d.runDue(31 * S);
        assertThat(heard).containsExactly("out 1", "back 1");
    }
}
