package dev.outlierlab.sim.traffic;

import dev.outlierlab.engine.Durations;

/**
 * The send times of requests 0, 1, 2, ... in order, {@code floor(i * 1e9 / rps)} exactly (lab-model section
 * 3), computed by carrying quotient and remainder from one request to the next instead of dividing for each:
 * the same numbers as {@code TrafficSpec.sendTimeNanos(i)}, without three 64-bit divisions per request (a
 * 64-bit division by a number not known in advance costs tens of cycles, more than the rest of a request's
 * routing). Used by both simulations.
 */
public final class EvenSendTimes {
    private final long rps;
    private final long stepQuotient;
    private final long stepRemainder;
    /** Request i = seconds * rps + r: the whole seconds, r, and floor(r * 1e9 / rps) with its remainder. */
    private long seconds;

    private long r = -1;
    private long fraction;
    private long remainder;

    public EvenSendTimes(long rps) {
        this.rps = rps;
        this.stepQuotient = Durations.SECOND / rps;
        this.stepRemainder = Durations.SECOND % rps;
    }

    /** The next request's send time. */
    public long next() {
        if (r < 0) {
            r = 0;
            return 0;
        }
        r++;
        if (r == rps) {
            r = 0;
            seconds++;
            fraction = 0;
            remainder = 0;
        } else {
            fraction += stepQuotient;
            remainder += stepRemainder;
            if (remainder >= rps) {
                remainder -= rps;
                fraction++;
            }
        }
        return seconds * Durations.SECOND + fraction;
    }
}
