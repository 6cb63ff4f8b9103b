package dev.outlierlab.live;

import static dev.outlierlab.live.LiveFixtures.quickConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Listeners that throw errors, sneak checked exceptions or block, and handles from another pool. */
class ListenerContainmentTest {
    private final ManualClock clock = new ManualClock();

    private LivePool pool(String... names) {
        return LivePoolBuilder.envoy("search", quickConfig(), 0)
                .clock(clock)
                .seed(1)
                .mode(StageMode.PROD)
                .endpoints(names)
                .build();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void anErrorOrASneakyCheckedExceptionIsCountedAndNoOutcomeIsAppliedTwice() {
        LivePool pool = pool("a", "b", "c");
        AtomicInteger calls = new AtomicInteger();
        pool.addListener(new LiveListener() {
            @Override
            public void onDecision(LiveDecision decision) {
                calls.incrementAndGet();
                throw new AssertionError("a listener's bug");
            }
        });
        pool.addListener(new LiveListener() {
            @Override
            public void onDecision(LiveDecision decision) {
                ListenerContainmentTest.<RuntimeException>sneaky(new IOException("sneaky"));
            }
        });
        for (int i = 0; i < 10; i++) {
            pool.record(pool.endpoint("a"), 503);
        }
        Selection s = pool.filter();
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("b", "c");
        PoolSnapshot snap = pool.snapshot();
        assertThat(snap.counters().accepted()).isEqualTo(10);
        assertThat(snap.counters().applied()).isEqualTo(10);
        assertThat(snap.detectorStats().get("ejections_enforced_total")).isEqualTo(1);
        assertThat(calls).hasValue(1);
        assertThat(snap.counters().listenerErrors()).isEqualTo(2);
    }

    @Test
    void aStageListenerThatThrowsAnErrorNeverFailsFilter() {
        LivePool pool = pool("a", "b");
        pool.addListener(new LiveListener() {
            @Override
            public void onStage(StageRecord stage) {
                throw new StackOverflowError("a listener's bug");
            }

            @Override
            public void onStageRequest(StageRecord stage) {
                throw new OutOfMemoryError("a listener's bug");
            }
        });
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("a"), 503);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("b");
        }
        assertThat(pool.counters().listenerErrors()).isEqualTo(5);
        assertThat(pool.counters().stageEject()).isEqualTo(5);
    }

    @Test
    void theStageCallbackFiresOnChangeAndTheRequestCallbackOnEveryRequest() {
        LivePool pool = pool("a", "b", "c");
        AtomicInteger changes = new AtomicInteger();
        AtomicInteger requests = new AtomicInteger();
        pool.addListener(new LiveListener() {
            @Override
            public void onStage(StageRecord stage) {
                changes.incrementAndGet();
            }

            @Override
            public void onStageRequest(StageRecord stage) {
                requests.incrementAndGet();
            }
        });
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("a"), 503);
        }
        for (int i = 0; i < 100; i++) {
            pool.filter();
        }
        assertThat(changes).hasValue(1);
        assertThat(requests).hasValue(100);
        // b ejected too: another set of endpoints is a change; then the same set again is not.
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("b"), 503);
        }
        for (int i = 0; i < 100; i++) {
            assertThat(pool.filter().stage().action()).isEqualTo(StageAction.EJECT);
        }
        assertThat(changes).hasValue(2);
        assertThat(requests).hasValue(200);
    }

    @Test
    void aBlockingListenerNeverStallsARecordingThread() throws Exception {
        LivePool pool = LivePoolBuilder.envoy("search", quickConfig(), 0)
                .clock(clock)
                .seed(1)
                .mode(StageMode.PROD)
                .endpoints("a", "b", "c")
                .stripes(1)
                .ringCapacity(4)
                .build();
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        pool.addListener(new LiveListener() {
            @Override
            public void onDecision(LiveDecision decision) {
                inListener.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("a"), 503);
        }
        Thread filtering = new Thread(pool::filter);
        filtering.start();
        assertThat(inListener.await(10, TimeUnit.SECONDS)).isTrue();
        // The filtering thread is stuck in the listener; a recording thread fills its 4-slot ring 2,500 times.
        Thread recording = new Thread(() -> {
            for (int i = 0; i < 10_000; i++) {
                pool.record(pool.endpoint(i % 2 == 0 ? "b" : "c"), 503);
            }
        });
        recording.start();
        recording.join(20_000);
        assertThat(recording.isAlive())
                .as("recording thread stalled by a blocked listener")
                .isFalse();
        assertThat(pool.counters().applied()).isGreaterThanOrEqualTo(10_000 - 4);
        release.countDown();
        filtering.join(10_000);
        assertThat(pool.snapshot().counters().applied()).isEqualTo(10_003);
    }

    @Test
    void aHandleFromAnotherPoolIsRefused() {
        LivePool one = pool("a", "b");
        LivePool other = pool("a", "b");
        Endpoint foreign = other.endpoint("a");
        assertThatThrownBy(() -> one.record(foreign, 503))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("endpoint a belongs to another pool than search");
        assertThatThrownBy(() -> one.filter(List.of(foreign, one.endpoint("b"))))
                .hasMessageContaining("belongs to another pool");
        assertThat(one.remove(foreign)).isFalse();
        assertThat(one.snapshot().counters().accepted()).isZero();
    }
}
