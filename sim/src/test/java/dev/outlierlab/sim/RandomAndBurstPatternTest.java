package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.fault.FailureSequence;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The random and burst patterns (docs/model.md): their rates, their runs, and their independence. */
class RandomAndBurstPatternTest {
    private static final int N = 200_000;

    private static FaultSpec fault(long ppm, FaultPattern pattern, long burstMilli) {
        return FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, 1000 * S)
                .errorRatePpm(ppm)
                .pattern(pattern)
                .burstLengthMilli(burstMilli)
                .build();
    }

    private static boolean[] draws(FaultSpec f, int faultIndex, String host, long seed, int n) {
        FailureSequence seq = FailureSequence.of(f, faultIndex, host, seed);
        boolean[] out = new boolean[n];
        for (int k = 0; k < n; k++) {
            out[k] = seq.fails(k);
        }
        return out;
    }

    private static double share(boolean[] fails) {
        int n = 0;
        for (boolean b : fails) {
            n += b ? 1 : 0;
        }
        return n * 100.0 / fails.length;
    }

    /** Lengths of the runs of consecutive failures. */
    private static List<Integer> runs(boolean[] fails) {
        List<Integer> runs = new ArrayList<>();
        int run = 0;
        for (boolean b : fails) {
            if (b) {
                run++;
            } else if (run > 0) {
                runs.add(run);
                run = 0;
            }
        }
        if (run > 0) {
            runs.add(run);
        }
        return runs;
    }

    @Test
    void randomFailsTheRateAndMakesRunsTheEvenPatternNeverMakes() {
        boolean[] fails = draws(fault(330_000, FaultPattern.RANDOM, 0), 0, "host-0", 1, N);
        // 200,000 Bernoulli(0.33) draws: standard error 0.105 points
        assertThat(share(fails)).isCloseTo(33.0, within(0.5));
        List<Integer> runs = runs(fails);
        // independent draws: a run continues with probability 0.33, so runs average 1 / 0.67 = 1.49
        double mean = runs.stream().mapToInt(Integer::intValue).average().orElseThrow();
        assertThat(mean).isCloseTo(1.0 / 0.67, within(0.03));
        // five in a row: about 0.33^5 * 0.67 of positions; the even pattern at 33 % never has two
        assertThat(runs.stream().filter(r -> r >= 5).count()).isGreaterThan(100);
        assertThat(FaultSpec.longestFailureRun(330_000)).isEqualTo(1);
    }

    @Test
    void burstsKeepTheRateAndAverageTheGivenLength() {
        boolean[] fails = draws(fault(330_000, FaultPattern.BURSTS, 5_000), 0, "host-0", 1, N);
        assertThat(share(fails)).isCloseTo(33.0, within(1.0));
        double mean = runs(fails).stream().mapToInt(Integer::intValue).average().orElseThrow();
        assertThat(mean).isCloseTo(5.0, within(0.2));
        // a fractional length: bursts of 2.5 failures on average
        boolean[] shorter = draws(fault(100_000, FaultPattern.BURSTS, 2_500), 0, "host-0", 7, N);
        assertThat(share(shorter)).isCloseTo(10.0, within(0.5));
        assertThat(runs(shorter).stream().mapToInt(Integer::intValue).average().orElseThrow())
                .isCloseTo(2.5, within(0.1));
    }

    @Test
    void zeroAndHundredPercentNeedNoLuck() {
        for (FaultPattern p : List.of(FaultPattern.RANDOM, FaultPattern.BURSTS)) {
            assertThat(share(draws(fault(0, p, 5_000), 0, "host-0", 3, 10_000)))
                    .as(p.name())
                    .isZero();
            assertThat(share(draws(fault(1_000_000, p, 5_000), 0, "host-0", 3, 10_000)))
                    .as(p.name())
                    .isEqualTo(100.0);
        }
    }

    @Test
    void theSameSeedGivesTheSameFailuresAndAnotherSeedOthers() {
        FaultSpec f = fault(330_000, FaultPattern.RANDOM, 0);
        assertThat(draws(f, 0, "host-0", 1, 1000)).isEqualTo(draws(f, 0, "host-0", 1, 1000));
        assertThat(draws(f, 0, "host-0", 2, 1000)).isNotEqualTo(draws(f, 0, "host-0", 1, 1000));
        // each host and each fault has its own stream
        assertThat(draws(f, 0, "host-1", 1, 1000)).isNotEqualTo(draws(f, 0, "host-0", 1, 1000));
        assertThat(draws(f, 1, "host-0", 1, 1000)).isNotEqualTo(draws(f, 0, "host-0", 1, 1000));
    }

    @Test
    void addingAHostOrALaterFaultLeavesAnotherHostsDrawsAlone() {
        FaultSpec onA = FaultSpec.builder()
                .hosts(List.of("a"))
                .window(0, 10 * S)
                .errorRatePpm(330_000)
                .pattern(FaultPattern.RANDOM)
                .burstLengthMilli(0)
                .build();
        FaultInjector alone = new FaultInjector(List.of(onA), Map.of("a", 0), 42);
        FaultSpec onAandC = FaultSpec.builder()
                .hosts(List.of("c", "a"))
                .window(0, 10 * S)
                .errorRatePpm(330_000)
                .pattern(FaultPattern.RANDOM)
                .burstLengthMilli(0)
                .build();
        FaultSpec later = FaultSpec.builder()
                .hosts(List.of("a", "b"))
                .window(0, 10 * S)
                .errorRatePpm(500_000)
                .status(500)
                .pattern(FaultPattern.BURSTS)
                .burstLengthMilli(3_000)
                .build();
        // host "a" is now index 1, covered by a second fault too, and the fault lists another host first
        FaultInjector crowded = new FaultInjector(List.of(onAandC, later), Map.of("b", 0, "a", 1, "c", 2), 42);
        List<Integer> first = new ArrayList<>();
        List<Integer> second = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            first.add(alone.onRequest(0, i * 1_000_000L));
            crowded.onRequest(0, i * 1_000_000L);
            crowded.onRequest(2, i * 1_000_000L);
            second.add(crowded.onRequest(1, i * 1_000_000L));
        }
        assertThat(second).isEqualTo(first);
        assertThat(first).contains(0, FaultInjector.PASS);
    }

    @Test
    void aBurstTooShortForTheRateIsRefusedWithTheShortestAllowed() {
        // at 90 % the runs of successes average one request only if bursts average 9 failures or more
        assertThatThrownBy(() -> fault(900_000, FaultPattern.BURSTS, 8_999))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("faults[].burst_length")
                .hasMessageContaining("from 9 to 1000000");
        assertThat(fault(900_000, FaultPattern.BURSTS, 9_000).burstLength()).isEqualTo(9.0);
        assertThatThrownBy(() -> fault(100_000, FaultPattern.BURSTS, 999)).hasMessageContaining("from 1 to 1000000");
        assertThat(FaultSpec.shortestBurstLengthMilli(330_000)).isEqualTo(1000);
        assertThat(FaultSpec.shortestBurstLengthMilli(750_000)).isEqualTo(3000);
    }
}
