package dev.outlierlab.sim.signals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The remembered step is floor(nanos / step) for times in order, out of order, at bounds and near the top. */
class StepIndexTest {
    @Test
    void equalsTheDivisionForTimesInAndOutOfOrder() {
        SplittableRandom random = new SplittableRandom(7);
        for (long step : new long[] {1, 3, 1_000_000_000L, 7_000_000_000L, Long.MAX_VALUE / 3}) {
            StepIndex index = new StepIndex(step);
            long t = 0;
            for (int k = 0; k < 20_000; k++) {
                t = random.nextInt(4) == 0
                        ? random.nextLong(Long.MAX_VALUE)
                        : t + random.nextLong(2 * Math.min(step, 1L << 40));
                if (t < 0) {
                    t = 0;
                }
                assertThat(index.of(t)).as("step %d, t %d", step, t).isEqualTo(t / step);
                long bound = (t / step) * step;
                assertThat(index.of(bound)).isEqualTo(bound / step);
                if (bound > 0) {
                    assertThat(index.of(bound - 1)).isEqualTo((bound - 1) / step);
                }
            }
            assertThat(index.of(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE / step);
        }
    }
}
