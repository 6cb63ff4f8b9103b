package dev.outlierlab.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The rings behind {@link LivePool#record}: a lane's owned ring and its shared ring, the lap parity that marks
 * a published slot, the states an offer returns, the time merge of a drain and the release of a lane whose
 * owner has terminated. Outcomes are taken into a list instead of an engine detector, so the order is seen
 * directly.
 */
class OutcomeRingTest {
    /** Outcomes as a drain hands them over: time and code (the endpoint number is the code's thread, 0 or 1). */
    private final List<long[]> taken = new ArrayList<>();

    private final OutcomeSink sink = (time, payload) ->
            taken.add(new long[] {time, OutcomeRings.endpointId(payload), OutcomeRings.code(payload)});

    private int drainAll(OutcomeRings recorder) {
        int n = 0;
        int batch;
        while ((batch = recorder.drainBatch(sink, 1 << 20, true)) > 0) {
            n += batch;
        }
        return n;
    }

    private List<Long> times() {
        List<Long> times = new ArrayList<>();
        for (long[] t : taken) {
            times.add(t[0]);
        }
        return times;
    }

    /**
     * One lane of 16: this thread owns it and records at {@code first} then {@code second}; another thread of the
     * lane then records at {@code other}, into the shared ring.
     */
    private static OutcomeRings ownerThenOther(long first, long second, long other) throws InterruptedException {
        OutcomeRings recorder = new OutcomeRings(1, 16);
        recorder.offer(first, OutcomeRings.payload(0, 200));
        recorder.offer(second, OutcomeRings.payload(0, 200));
        Thread thread = new Thread(() -> recorder.offer(other, OutcomeRings.payload(1, 200)));
        thread.start();
        thread.join();
        return recorder;
    }

    @Test
    void anOwnedRingReportsHighAndFullAndKeepsClaimOrderOverManyLaps() {
        OutcomeRings recorder = new OutcomeRings(1, 4);
        assertThat(recorder.offer(0, OutcomeRings.payload(0, 200))).isEqualTo(OutcomeStripe.ACCEPTED);
        assertThat(recorder.offer(1, OutcomeRings.payload(0, 200))).isEqualTo(OutcomeStripe.ACCEPTED);
        assertThat(recorder.offer(2, OutcomeRings.payload(0, 200))).isEqualTo(OutcomeStripe.ACCEPTED);
        // The fourth of four slots: accepted, with a drain due (the last quarter of the ring).
        assertThat(recorder.offer(3, OutcomeRings.payload(0, 503))).isEqualTo(OutcomeStripe.ACCEPTED_HIGH);
        assertThat(recorder.offer(4, OutcomeRings.payload(0, 200))).isEqualTo(OutcomeStripe.FULL);
        assertThat(recorder.ownerOfLane(0)).isSameAs(Thread.currentThread());
        assertThat(drainAll(recorder)).isEqualTo(4);
        // 1000 more, drained whenever the ring asks: 250 laps of the four slots, none lost, none reordered.
        for (long t = 4; t < 1004; t++) {
            int offered = recorder.offer(t, OutcomeRings.payload(0, (int) (t % 7 == 0 ? 503 : 200)));
            if (offered == OutcomeStripe.FULL) {
                drainAll(recorder);
                offered = recorder.offer(t, OutcomeRings.payload(0, (int) (t % 7 == 0 ? 503 : 200)));
            }
            assertThat(offered).isNotEqualTo(OutcomeStripe.FULL);
        }
        drainAll(recorder);
        assertThat(taken).hasSize(1004);
        for (int i = 0; i < 1004; i++) {
            assertThat(taken.get(i)[0]).isEqualTo(i);
            assertThat(taken.get(i)[2]).isEqualTo(i == 3 || (i >= 4 && i % 7 == 0) ? 503 : 200);
        }
        assertThat(recorder.accepted()).isEqualTo(1004);
    }

    @Test
    void anotherThreadOfAnOwnedLaneUsesTheSharedRingAndTheDrainMergesByTime() throws Exception {
        OutcomeRings recorder = new OutcomeRings(1, 16);
        for (long t : new long[] {10, 30, 50}) {
            recorder.offer(t, OutcomeRings.payload(0, 200));
        }
        Thread other = new Thread(() -> {
            for (long t : new long[] {20, 40, 60}) {
                recorder.offer(t, OutcomeRings.payload(1, 503));
            }
        });
        other.start();
        other.join();
        assertThat(recorder.ownerOfLane(0)).isSameAs(Thread.currentThread());
        // The first batch goes up to the owner's latest time, 50; the shared ring's 60 waits for the next.
        assertThat(recorder.drainBatch(sink, 1 << 20, true)).isEqualTo(5);
        assertThat(times()).containsExactly(10L, 20L, 30L, 40L, 50L);
        assertThat(recorder.drainBatch(sink, 1 << 20, true)).isEqualTo(1);
        assertThat(times()).containsExactly(10L, 20L, 30L, 40L, 50L, 60L);
        assertThat(taken).extracting(t -> t[1]).containsExactly(0L, 1L, 0L, 1L, 0L, 1L);
        assertThat(recorder.drainBatch(sink, 1 << 20, true)).isZero();
    }

    @Test
    void aBatchThatTheBoundWouldHoldWhollyIsMergedWhole() throws Exception {
        // The owner's times go back (a caller passing its own times): its latest is 5, below both heads.
        OutcomeRings recorder = ownerThenOther(100, 5, 50);
        assertThat(recorder.drainBatch(sink, 1 << 20, true)).isEqualTo(3);
        assertThat(times()).containsExactly(50L, 100L, 5L);
    }

    @Test
    void anUnboundedDrainDoesNotWaitForALaggingRing() throws Exception {
        OutcomeRings recorder = ownerThenOther(10, 70, 20);
        assertThat(recorder.drainBatch(sink, 1 << 20, false)).isEqualTo(3);
        assertThat(times()).containsExactly(10L, 20L, 70L);
    }

    @Test
    void theLaneOfATerminatedOwnerIsGivenUpOnceItsRingIsEmpty() throws Exception {
        OutcomeRings recorder = new OutcomeRings(1, 16);
        AtomicReference<Thread> first = new AtomicReference<>();
        Thread owner = new Thread(() -> {
            first.set(Thread.currentThread());
            recorder.offer(1, OutcomeRings.payload(0, 200));
        });
        owner.start();
        owner.join();
        assertThat(recorder.ownerOfLane(0)).isSameAs(first.get());
        recorder.releaseLanesOfDeadThreads();
        assertThat(recorder.ownerOfLane(0))
                .as("its outcome is still in the ring")
                .isSameAs(first.get());
        // Meanwhile this thread records into the lane's shared ring.
        recorder.offer(2, OutcomeRings.payload(1, 200));
        assertThat(recorder.ownerOfLane(0)).isSameAs(first.get());
        assertThat(drainAll(recorder)).isEqualTo(2);
        recorder.releaseLanesOfDeadThreads();
        assertThat(recorder.ownerOfLane(0)).isNull();
        recorder.offer(3, OutcomeRings.payload(1, 200));
        assertThat(recorder.ownerOfLane(0)).isSameAs(Thread.currentThread());
        recorder.releaseLanesOfDeadThreads();
        assertThat(recorder.ownerOfLane(0)).as("a live owner keeps its lane").isSameAs(Thread.currentThread());
        assertThat(drainAll(recorder)).isEqualTo(1);
        assertThat(times()).containsExactly(1L, 2L, 3L);
        assertThat(recorder.accepted()).isEqualTo(3);
    }

    @Test
    void sharedRingPublishesByLapParityAcrossWraps() throws Exception {
        OutcomeRings recorder = new OutcomeRings(1, 4);
        recorder.offer(0, OutcomeRings.payload(0, 200)); // this thread owns the lane
        Thread other = new Thread(() -> {
            for (long t = 1; t <= 400; t++) {
                while (recorder.offer(t, OutcomeRings.payload(1, LocalFailure.TIMEOUT.code())) == OutcomeStripe.FULL) {
                    Thread.onSpinWait();
                }
            }
        });
        other.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((other.isAlive() || recorder.accepted() > taken.size()) && System.nanoTime() < deadline) {
            recorder.drainBatch(sink, 1 << 20, false);
        }
        other.join();
        assertThat(taken).hasSize(401);
        for (int i = 0; i <= 400; i++) {
            assertThat(taken.get(i)[0]).isEqualTo(i);
        }
        assertThat(taken.get(400)[2]).isEqualTo(LocalFailure.TIMEOUT.code());
    }
}
