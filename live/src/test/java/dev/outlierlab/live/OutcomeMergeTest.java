package dev.outlierlab.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The drain's merge of two rings in one loop ({@link OutcomeStripe#mergeTwo}) against the merge of any number
 * of rings ({@link OutcomeRings#mergeRuns}), on the same contents: seeded random batches with ties, times
 * that go back, rings that start anywhere in their laps and bounds that cut them, so the two must agree on
 * every outcome's place, on how many they apply and on where each ring stops.
 */
class OutcomeMergeTest {
    private static final int CAPACITY = 64;

    @Test
    void theTwoRingMergeTakesTheSameOutcomesInTheSameOrderAsTheGeneralOne() {
        Random random = new Random(2026_12_01L);
        int interleaved = 0;
        for (int trial = 0; trial < 2000; trial++) {
            int skipA = random.nextInt(3 * CAPACITY);
            int skipB = random.nextInt(3 * CAPACITY);
            long[][] contents = {times(random), times(random)};
            long bound = random.nextInt(4) == 0 ? Long.MAX_VALUE : random.nextInt(60);
            int max = 1 + random.nextInt(CAPACITY);

            OutcomeStripe[] two = rings(contents, skipA, skipB);
            OutcomeStripe[] general = rings(contents, skipA, skipB);
            List<String> byTwo = new ArrayList<>();
            List<String> byGeneral = new ArrayList<>();
            int counted = 0;
            for (int i = 0; i < 2; i++) {
                int batch = two[i].beginBatch(max);
                assertThat(general[i].beginBatch(max)).isEqualTo(batch);
                counted += batch;
            }
            int appliedTwo = OutcomeStripe.mergeTwo(two[0], two[1], (t, p) -> byTwo.add(t + "/" + p), bound);
            int appliedGeneral = OutcomeRings.mergeRuns(general, 2, (t, p) -> byGeneral.add(t + "/" + p), bound);

            assertThat(byTwo).as("trial %d", trial).isEqualTo(byGeneral);
            assertThat(appliedTwo)
                    .isEqualTo(appliedGeneral)
                    .isEqualTo(byTwo.size())
                    .isLessThanOrEqualTo(counted);
            for (int i = 0; i < 2; i++) {
                assertThat(two[i].inBatch()).isEqualTo(general[i].inBatch());
                if (two[i].inBatch()) {
                    assertThat(two[i].nextTime()).isEqualTo(general[i].nextTime());
                }
                two[i].release();
                general[i].release();
                assertThat(two[i].hasPending()).isEqualTo(general[i].hasPending());
            }
            if (switches(byTwo) > 2) {
                interleaved++;
            }
        }
        // the runs are mostly short: the case the one-loop merge is for
        assertThat(interleaved).isGreaterThan(1000);
    }

    /** 0 to 40 times from 0 to 59, mostly rising, some equal, some going back. */
    private static long[] times(Random random) {
        long[] times = new long[random.nextInt(41)];
        long t = random.nextInt(10);
        for (int i = 0; i < times.length; i++) {
            int step = random.nextInt(10);
            t = step == 0 ? Math.max(0, t - random.nextInt(8)) : step < 3 ? t : t + random.nextInt(4);
            times[i] = Math.min(t, 59);
        }
        return times;
    }

    /**
     * Two rings holding the given times (each outcome's payload is its ring and place), after {@code skipA} and
     * {@code skipB} outcomes were offered and taken, so that a ring starts anywhere in its lap.
     */
    private static OutcomeStripe[] rings(long[][] contents, int skipA, int skipB) {
        OutcomeStripe[] rings = {new OutcomeStripe(CAPACITY, true), new OutcomeStripe(CAPACITY, true)};
        int[] skips = {skipA, skipB};
        for (int r = 0; r < 2; r++) {
            for (int k = 0; k < skips[r]; k++) {
                assertThat(rings[r].offerOwned(0, 0)).isNotEqualTo(OutcomeStripe.FULL);
                if (k % 16 == 15 || k == skips[r] - 1) {
                    rings[r].beginBatch(CAPACITY);
                    rings[r].applyRun((t, p) -> {}, Long.MAX_VALUE);
                    rings[r].release();
                    assertThat(rings[r].isEmpty()).isTrue();
                }
            }
            for (int i = 0; i < contents[r].length; i++) {
                assertThat(rings[r].offerOwned(contents[r][i], OutcomeRings.payload(r, i)))
                        .isNotEqualTo(OutcomeStripe.FULL);
            }
        }
        return rings;
    }

    private static int switches(List<String> taken) {
        int switches = 0;
        for (int i = 1; i < taken.size(); i++) {
            long before = Long.parseLong(taken.get(i - 1).split("/")[1]) >>> 16;
            long now = Long.parseLong(taken.get(i).split("/")[1]) >>> 16;
            if (before != now) {
                switches++;
            }
        }
        return switches;
    }
}
