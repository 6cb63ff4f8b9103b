package dev.outlierlab.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The ring of buckets: an attempt falls out of the window exactly when its bucket does. */
class EndpointWindowTest {
    static final long S = Durations.SECOND;

    @Test
    void aBucketLeavesTheWindowWhenTheWindowMovesPastIt() {
        EndpointWindow w = new EndpointWindow(S, 3);
        w.record(S / 2, true);
        w.record(3 * S / 2, false);
        w.record(5 * S / 2, false);
        assertThat(w.attempts()).isEqualTo(3);
        assertThat(w.failures()).isEqualTo(1);
        w.advance(3 * S - 1);
        assertThat(w.attempts()).isEqualTo(3);
        w.advance(3 * S);
        assertThat(w.attempts()).isEqualTo(2);
        assertThat(w.failures()).isZero();
        assertThat(w.windowStartNanos()).isEqualTo(S);
        assertThat(w.successRatePercent()).isEqualTo(100.0);
        w.advance(5 * S);
        assertThat(w.attempts()).isZero();
    }

    /** The rate of a window without failures is 100 without a division: the division gives exactly that too. */
    @Test
    void aWindowWithoutFailuresHasTheRateTheDivisionGives() {
        Random random = new Random(17);
        for (int k = 0; k < 200_000; k++) {
            long a = k < 100_000 ? k + 1 : 1 + (random.nextLong() >>> (19 + random.nextInt(45)));
            assertThat(a).isLessThan(EndpointWindow.EXACT_PERCENT_LIMIT);
            assertThat(a * 100.0 / a).as("a = %d", a).isEqualTo(100.0);
        }
        // why larger counts divide: there the product is rounded and the quotient need not be 100
        long large = 413_500_381_981_247_041L;
        assertThat(large * 100.0 / large).isNotEqualTo(100.0);
        EndpointWindow w = new EndpointWindow(S, 3);
        for (int i = 0; i < 7; i++) {
            w.record(i, false);
        }
        assertThat(w.successRatePercent()).isEqualTo(7 * 100.0 / 7);
        w.record(8, true);
        assertThat(w.successRatePercent()).isEqualTo(7 * 100.0 / 8).isEqualTo(87.5);
        assertThat(new EndpointWindow(S, 3).successRatePercent()).isNaN();
    }

    @Test
    void aLongGapClearsEverythingAndRecordingGoesOn() {
        EndpointWindow w = new EndpointWindow(S, 60);
        for (int i = 0; i < 120; i++) {
            w.record(i * S / 2, i % 3 == 0);
        }
        assertThat(w.attempts()).isEqualTo(120);
        assertThat(w.failures()).isEqualTo(40);
        w.record(1000 * S, true);
        assertThat(w.attempts()).isEqualTo(1);
        assertThat(w.successRatePercent()).isEqualTo(0.0);
    }

    @Test
    void countsMatchABruteForceCountOverSeededTraffic() {
        Random random = new Random(9);
        for (int run = 0; run < 50; run++) {
            int buckets = 1 + random.nextInt(10);
            long bucket = (1 + random.nextInt(5)) * 100_000_000L;
            EndpointWindow w = new EndpointWindow(bucket, buckets);
            long[] times = new long[500];
            boolean[] failed = new boolean[500];
            long t = 0;
            for (int i = 0; i < 500; i++) {
                t += random.nextInt(3) == 0 ? random.nextInt(300_000_000) : random.nextInt(1000);
                times[i] = t;
                failed[i] = random.nextBoolean();
                w.record(t, failed[i]);
                long oldest = (t / bucket - buckets + 1) * bucket;
                long attempts = 0;
                long failures = 0;
                for (int k = 0; k <= i; k++) {
                    if (times[k] >= oldest) {
                        attempts++;
                        failures += failed[k] ? 1 : 0;
                    }
                }
                assertThat(w.attempts()).as("run %d step %d", run, i).isEqualTo(attempts);
                assertThat(w.failures()).isEqualTo(failures);
            }
        }
    }
}
