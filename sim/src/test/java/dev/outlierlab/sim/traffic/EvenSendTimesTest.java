package dev.outlierlab.sim.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.sim.scenario.TrafficSpec;
import org.junit.jupiter.api.Test;

/** The incremental send times are the lab model's floor(i * 1e9 / rps), request by request. */
class EvenSendTimesTest {
    @Test
    void sameAsTrafficSpecForAwkwardRates() {
        for (long rps : new long[] {1, 3, 7, 600, 999, 1000, 1001, 65_537, 999_999_937L, 1_000_000_000L}) {
            TrafficSpec spec = new TrafficSpec(rps);
            EvenSendTimes times = new EvenSendTimes(rps);
            for (long i = 0; i < 200_000; i++) {
                long expected = spec.sendTimeNanos(i);
                long actual = times.next();
                if (actual != expected) {
                    throw new AssertionError("rps " + rps + ", request " + i + ": " + actual + " != " + expected);
                }
            }
            assertThat(times.next()).isEqualTo(spec.sendTimeNanos(200_000));
        }
    }
}
