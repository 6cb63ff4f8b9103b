package dev.outlierlab.sim.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The random pattern's draw in parts per million, by multiplication, against the unsigned remainder it replaces. */
class SplitMixTest {
    @Test
    void millionthsIsTheUnsignedRemainderByAMillion() {
        long[] edges = {
            0, 1, 999_999, 1_000_000, 1_000_001, -1, -1_000_000, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1
        };
        for (long x : edges) {
            assertThat(SplitMix.millionths(x)).as("x = %d", x).isEqualTo(Long.remainderUnsigned(x, 1_000_000));
        }
        SplittableRandom r = new SplittableRandom(0xD1CEL);
        for (int i = 0; i < 2_000_000; i++) {
            long x = r.nextLong();
            // every value, and those next to a multiple of a million, where a quotient off by one would show
            long near = Long.divideUnsigned(x, 1_000_000) * 1_000_000 + r.nextInt(3) - 1;
            assertThat(SplitMix.millionths(x)).isEqualTo(Long.remainderUnsigned(x, 1_000_000));
            assertThat(SplitMix.millionths(near)).isEqualTo(Long.remainderUnsigned(near, 1_000_000));
            assertThat(SplitMix.millionths(SplitMix.mix(x)))
                    .isEqualTo(Long.remainderUnsigned(SplitMix.mix(x), 1_000_000));
        }
    }
}
