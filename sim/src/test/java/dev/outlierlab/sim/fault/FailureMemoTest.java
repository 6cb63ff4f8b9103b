package dev.outlierlab.sim.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The random pattern's failures looked up in a {@link FailureMemo} are the ones drawn without it: for seeded streams
 * and rates (0.01 % to 99 %), runs of queries in order (as a run asks, from just past each failure), jumps back and
 * ahead, limits inside and across blocks, several readers of one stream, and a memo small enough to forget its
 * streams again and again.
 */
class FailureMemoTest {
    @Test
    void lookedUpFailuresAreTheDrawnOnes() {
        SplittableRandom rnd = new SplittableRandom(0x3E30L);
        FailureMemo memo = new FailureMemo(20_000);
        long failures = 0;
        for (int s = 0; s < 300; s++) {
            long seed = rnd.nextLong();
            long ppm = switch (rnd.nextInt(4)) {
                case 0 -> 100 + rnd.nextInt(1000);
                case 1 -> 900_000 + rnd.nextInt(90_000);
                default -> 1 + rnd.nextInt(999_999);
            };
            RandomFailures drawn = new RandomFailures(ppm, seed);
            RandomFailures first = new RandomFailures(ppm, seed, memo);
            RandomFailures second = new RandomFailures(ppm, seed, memo);
            long k = rnd.nextInt(3) == 0 ? rnd.nextLong(1L << 20) : 0;
            for (int q = 0; q < 400; q++) {
                long limit = k + 1 + rnd.nextInt(rnd.nextBoolean() ? 20 : 3 * FailureMemo.BLOCK);
                long expected = drawn.nextFailure(k, limit);
                assertThat(first.nextFailure(k, limit))
                        .as("seed %d ppm %d from %d", seed, ppm, k)
                        .isEqualTo(expected);
                assertThat(second.nextFailure(k, limit)).isEqualTo(expected);
                if (expected < limit) {
                    assertThat(drawn.fails(expected)).isTrue();
                    failures++;
                }
                for (long n = k; n < Math.min(expected, k + 50); n++) {
                    assertThat(drawn.fails(n)).isFalse();
                }
                k = switch (rnd.nextInt(10)) {
                    case 0 -> Math.max(0, k - rnd.nextInt(2 * FailureMemo.BLOCK)); // back
                    case 1 -> k + rnd.nextInt(5 * FailureMemo.BLOCK); // ahead
                    default -> expected < limit ? expected + 1 : limit;
                };
            }
        }
        assertThat(failures).isGreaterThan(50_000);
        assertThat(memo.kept()).isLessThanOrEqualTo(20_000 + FailureMemo.BLOCK);
    }
}
