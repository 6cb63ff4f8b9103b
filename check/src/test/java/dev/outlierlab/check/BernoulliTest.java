package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.SeededRandom;
import org.junit.jupiter.api.Test;

/**
 * The expected wait for a run of failures, checked against a seeded stream of independent failures (the
 * simulator has no random fault pattern yet, so the stream is drawn here from the lab's own SplitMix64).
 */
class BernoulliTest {

    @Test
    void closedFormValues() {
        assertThat(Bernoulli.expectedRequestsToRun(0.5, 1)).isEqualTo(2.0);
        assertThat(Bernoulli.expectedRequestsToRun(0.5, 2)).isEqualTo(6.0);    // (1 - 1/4) / (1/2 * 1/4)
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
}
