package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The expected wait for a run of failures, checked against a seeded stream of independent failures drawn
 * here from the lab's SplitMix64, and against the simulator's own {@code pattern: random} faults.
 */
class BernoulliTest {

    @Test
    void closedFormValues() {
        assertThat(Bernoulli.expectedRequestsToRun(0.5, 1)).isEqualTo(2.0);
        assertThat(Bernoulli.expectedRequestsToRun(0.5, 2)).isEqualTo(6.0); // (1 - 1/4) / (1/2 * 1/4)
        assertThat(Bernoulli.expectedRequestsToRun(0.01, 2)).isCloseTo(10_100.0, within(1e-6));
        assertThat(Bernoulli.expectedRequestsToRun(1.0, 5)).isEqualTo(5.0);
        assertThat(Bernoulli.expectedRequestsToRun(0.33, 5)).isCloseTo(379.885, within(0.001));
    }

    @Test
    void matchesASeededBernoulliStream() {
        double[][] cases = {{0.33, 5}, {0.5, 3}, {0.2, 3}, {0.8, 5}};
        for (double[] c : cases) {
            double p = c[0];
            int k = (int) c[1];
            SeededRandom random = new SeededRandom(7);
            int trials = 20_000;
            long total = 0;
            long threshold = (long) (p * (1L << 53));
            for (int t = 0; t < trials; t++) {
                int run = 0;
                long requests = 0;
                while (run < k) {
                    requests++;
                    boolean failed = (random.next() >>> 11) < threshold;
                    run = failed ? run + 1 : 0;
                }
                total += requests;
            }
            double mean = total / (double) trials;
            double expected = Bernoulli.expectedRequestsToRun(p, k);
            // the waiting time's standard deviation is about the mean, so 20,000 trials give about 1 % error
            assertThat(mean).as("p %s, k %s", p, k).isCloseTo(expected, within(expected * 0.03));
        }
    }

    @Test
    void matchesTheSimulatorsRandomFaultPattern() {
        // the finding's example: consecutive_5xx 5 at 33 %, and a hair trigger: 2 in a row at 20 %
        double[][] cases = {{0.33, 5}, {0.2, 2}};
        for (double[] c : cases) {
            double p = c[0];
            int k = (int) c[1];
            FaultSpec fault = FaultSpec.builder()
                    .hosts(List.of("host-0"))
                    .window(0, Long.MAX_VALUE)
                    .errorRatePpm(Math.round(p * FaultSpec.PPM))
                    .pattern(FaultPattern.RANDOM)
                    .build();
            int trials = 4_000;
            long total = 0;
            for (int seed = 1; seed <= trials; seed++) {
                // each scenario seed gives the fault its own stream of draws
                FaultInjector injector = new FaultInjector(List.of(fault), Map.of("host-0", 0), seed);
                int run = 0;
                long requests = 0;
                while (run < k) {
                    requests++;
                    run = injector.onRequest(0, requests) != FaultInjector.PASS ? run + 1 : 0;
                }
                total += requests;
            }
            double mean = total / (double) trials;
            double expected = Bernoulli.expectedRequestsToRun(p, k);
            // 4,000 waits whose spread is about their mean: about 1.6 % standard error
            assertThat(mean).as("p %s, k %s", p, k).isCloseTo(expected, within(expected * 0.06));
        }
    }
}
