package dev.outlierlab.live;

import static dev.outlierlab.live.LiveFixtures.MS;
import static dev.outlierlab.live.LiveFixtures.S;
import static dev.outlierlab.live.LiveFixtures.quickConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The three modes, the guard, panic and membership, on an injected clock. */
class LivePoolModesTest {
    private final ManualClock clock = new ManualClock();
    private final LiveFixtures.Recorder seen = new LiveFixtures.Recorder();

    private LivePool pool(StageMode mode, long panic, String... names) {
        LivePool pool = LivePoolBuilder.envoy("search", quickConfig(), panic)
                .clock(clock)
                .seed(1)
                .mode(mode)
                .endpoints(names)
                .build();
        pool.addListener(seen);
        return pool;
    }

    private static void fail(LivePool pool, Endpoint e, int times) {
        for (int i = 0; i < times; i++) {
            pool.record(e, 503);
        }
    }

    @Test
    void prodRemovesTheEjectedEndpointAndReturnsItAfterTheEjectionTime() {
        LivePool pool = pool(StageMode.PROD, 0, "a", "b", "c");
        Endpoint a = pool.endpoint("a");
        clock.set(1 * S);
        fail(pool, a, 3);
        Selection s = pool.filter();
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("b", "c");
        assertThat(s.stage().action()).isEqualTo(StageAction.EJECT);
        assertThat(s.stage().endpoints()).containsExactly("a");
        assertThat(seen.decisions)
                .extracting(LiveDecision::kind, LiveDecision::endpoint, LiveDecision::timeNanos, LiveDecision::reason)
                .containsExactly(Tuple.tuple(DecisionKind.EJECT, "a", 1 * S, "consecutive_5xx"));
        // Base ejection 30 s: out at 1 s, back at the first tick at or after 31 s, which is 40 s.
        clock.set(39 * S);
        assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("b", "c");
        clock.set(40 * S);
        Selection back = pool.filter();
        assertThat(back.candidates()).extracting(Endpoint::name).containsExactly("a", "b", "c");
        assertThat(back.stage()).isNull();
        assertThat(seen.decisions.get(1).kind()).isEqualTo(DecisionKind.RETURN);
        assertThat(seen.decisions.get(1).timeNanos()).isEqualTo(40 * S);
    }

    @Test
    void aCallersTimeCountsAsGivenButNeverBeforeTheEngineOrAfterTheDrain() {
        LivePool pool = pool(StageMode.PROD, 0, "a", "b", "c");
        Endpoint a = pool.endpoint("a");
        Endpoint b = pool.endpoint("b");
        clock.set(5 * S);
        // Attempts that ended at 2 s, 3 s and 4 s, recorded at 5 s: the ejection is at 4 s.
        pool.record(a, 503, 2 * S);
        pool.record(a, 502, 3 * S);
        pool.record(a, LocalFailure.RESET, 4 * S);
        pool.filter();
        assertThat(seen.decisions)
                .extracting(LiveDecision::endpoint, LiveDecision::timeNanos)
                .containsExactly(Tuple.tuple("a", 4 * S));
        // Before the engine's time (4 s): counts at 4 s. After the drain's (clock at 6 s): counts at 6 s.
        clock.set(6 * S);
        pool.record(b, 503, 1 * S);
        pool.record(b, 503, 4 * S);
        pool.record(b, 503, 3600 * S);
        pool.filter();
        assertThat(seen.decisions)
                .extracting(LiveDecision::endpoint, LiveDecision::timeNanos)
                .containsExactly(Tuple.tuple("a", 4 * S), Tuple.tuple("b", 6 * S));
        // Interval 10 s: the far-future stamp did not run the engine's ticks ahead of the clock.
        assertThat(pool.snapshot().endpoints())
                .extracting(EndpointState::ejected)
                .containsExactly(true, true, false);
    }

    @Test
    void shadowNamesTheEndpointButRoutesUnchanged() {
        LivePool pool = pool(StageMode.SHADOW, 0, "a", "b", "c");
        Endpoint a = pool.endpoint("a");
        fail(pool, a, 3);
        Selection s = pool.filter(List.of(pool.endpoint("c"), a, pool.endpoint("b")));
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("c", "a", "b");
        assertThat(s.stage().action()).isEqualTo(StageAction.WOULD_EJECT);
        assertThat(s.stage().mode()).isEqualTo(StageMode.SHADOW);
        assertThat(s.stage().endpoints()).containsExactly("a");
        assertThat(seen.decisions).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(DecisionKind.EJECT);
            assertThat(d.mode()).isEqualTo(StageMode.SHADOW);
        });
        // Switching to prod makes the virtual ejection real.
        pool.setMode(StageMode.PROD);
        assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("b", "c");
        assertThat(pool.counters().stageWouldEject()).isEqualTo(1);
        assertThat(pool.counters().stageEject()).isEqualTo(1);
    }

    @Test
    void offRecordsNothingAndLeavesTheListAlone() {
        LivePool pool = pool(StageMode.OFF, 0, "a", "b");
        Endpoint a = pool.endpoint("a");
        assertThat(pool.record(a, 503)).isFalse();
        fail(pool, a, 10);
        Selection s = pool.filter();
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("a", "b");
        assertThat(s.stage()).isNull();
        PoolCounters c = pool.snapshot().counters();
        assertThat(c.ignoredOff()).isEqualTo(11);
        assertThat(c.accepted()).isZero();
        assertThat(seen.decisions).isEmpty();
        assertThat(seen.stages).isEmpty();
    }

    @Test
    void theGuardKeepsTheOnlyEndpoint() {
        LivePool pool = pool(StageMode.PROD, 0, "only");
        fail(pool, pool.endpoint("only"), 3);
        Selection s = pool.filter();
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("only");
        assertThat(s.stage().action()).isEqualTo(StageAction.KEPT_ALL);
        assertThat(s.stage().endpoints()).containsExactly("only");
        assertThat(pool.snapshot().ejected()).containsExactly("only");
    }

    @Test
    void theGuardAppliesToTheRequestsListNotThePool() {
        LivePool pool = pool(StageMode.PROD, 0, "a", "b", "c");
        fail(pool, pool.endpoint("a"), 3);
        Selection s = pool.filter(List.of(pool.endpoint("a")));
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("a");
        assertThat(s.stage().action()).isEqualTo(StageAction.KEPT_ALL);
    }

    @Test
    void envoysPanicThresholdKeepsEjectedEndpoints() {
        LivePool pool = pool(StageMode.PROD, 50, "a", "b", "c");
        fail(pool, pool.endpoint("a"), 3);
        assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("b", "c");
        fail(pool, pool.endpoint("b"), 3);
        // 1 healthy of 3 is 33 % < 50 %: panic, every member is routed to; the guard's record says so.
        Selection s = pool.filter();
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("a", "b", "c");
        assertThat(s.stage().action()).isEqualTo(StageAction.KEPT_ALL);
        assertThat(s.stage().endpoints()).containsExactly("a", "b");
    }

    @Test
    void removingAnEndpointAppliesWhatWasRecordedAndANewHandleStartsClean() {
        LivePool pool = pool(StageMode.PROD, 0, "a", "b");
        Endpoint a = pool.endpoint("a");
        clock.set(5 * MS);
        fail(pool, a, 3);
        assertThat(pool.remove(a)).isTrue();
        assertThat(pool.remove(a)).isFalse();
        assertThat(seen.decisions).extracting(LiveDecision::kind).containsExactly(DecisionKind.EJECT);
        assertThat(a.isEjected()).isFalse();
        assertThat(a.isRemoved()).isTrue();
        // Outcomes for the old handle after removal are discarded, and accounted for.
        pool.record(a, 503);
        Endpoint again = pool.add("a");
        assertThat(again).isNotSameAs(a);
        assertThat(pool.snapshot().endpoints())
                .extracting(EndpointState::name, EndpointState::ejected)
                .containsExactly(Tuple.tuple("b", false), Tuple.tuple("a", false));
        PoolCounters c = pool.counters();
        assertThat(c.accepted()).isEqualTo(4);
        assertThat(c.applied()).isEqualTo(3);
        assertThat(c.discarded()).isEqualTo(1);
        assertThat(pool.snapshot().detectorStats())
                .containsEntry("ejections_active", 0L)
                .containsEntry("ejections_enforced_total", 1L);
        assertThatThrownBy(() -> pool.add("b")).hasMessageContaining("already has an endpoint named b");
    }

    @Test
    void aFullRingIsDrainedByTheRecordingThread() {
        LivePool pool = LivePoolBuilder.envoy("tiny", quickConfig(), 0)
                .clock(clock)
                .seed(1)
                .stripes(1)
                .ringCapacity(4)
                .endpoints("a", "b")
                .build();
        for (int i = 0; i < 100; i++) {
            clock.advance(MS);
            assertThat(pool.record(pool.endpoint("b"), i % 2 == 0 ? 200 : 404)).isTrue();
        }
        PoolCounters c = pool.counters();
        assertThat(c.accepted()).isEqualTo(100);
        assertThat(c.applied()).isGreaterThanOrEqualTo(96);
        assertThat(c.pending()).isLessThanOrEqualTo(4);
        assertThat(pool.snapshot().counters().applied()).isEqualTo(100);
    }

    @Test
    void aThrowingListenerIsCountedAndNeverFailsARequest() {
        LivePool pool = pool(StageMode.PROD, 0, "a", "b");
        pool.addListener(new LiveListener() {
            @Override
            public void onDecision(LiveDecision decision) {
                throw new IllegalStateException("boom");
            }

            @Override
            public void onStage(StageRecord stage) {
                throw new IllegalStateException("boom");
            }
        });
        fail(pool, pool.endpoint("a"), 3);
        assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("b");
        assertThat(pool.counters().listenerErrors()).isEqualTo(2);
    }

    @Test
    void aListenerMayCallBackIntoThePool() {
        LivePool pool = pool(StageMode.PROD, 0, "a", "b");
        List<Integer> seenSizes = new ArrayList<>();
        pool.addListener(new LiveListener() {
            @Override
            public void onDecision(LiveDecision decision) {
                seenSizes.add(pool.filter().candidates().size());
                pool.record(pool.endpoint("b"), 200);
                pool.snapshot();
            }
        });
        fail(pool, pool.endpoint("a"), 3);
        assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("b");
        // The listener saw the ejection published; it is called outside the pool's lock, so its snapshot drained
        // its own outcome too.
        assertThat(seenSizes).containsExactly(1);
        assertThat(pool.snapshot().counters().applied()).isEqualTo(4);
        assertThat(pool.counters().listenerErrors()).isZero();
    }

    @Test
    void badInputIsRefusedWithTheValue() {
        LivePool pool = pool(StageMode.PROD, 0, "a");
        assertThatThrownBy(() -> pool.record(pool.endpoint("a"), 42))
                .hasMessage("status 42 is not an HTTP status (100 to 599)");
        assertThatThrownBy(() -> LivePoolBuilder.envoy("p", quickConfig()).stripes(3))
                .hasMessage("stripes 3 must be a power of two from 1 to 64");
        assertThatThrownBy(() -> LivePoolBuilder.envoy("p", quickConfig()).ringCapacity(2))
                .hasMessage("ring capacity must be at least 4, not 2");
        assertThatThrownBy(() -> LivePoolBuilder.envoy("p", quickConfig(), 101))
                .hasMessage("panic threshold 101 is not a percentage (0 to 100)");
    }
}
