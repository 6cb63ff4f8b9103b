package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;

/**
 * Uniform traffic to the whole cluster: request {@code i} is sent at {@code floor(i * 1e9 / rps)} ns.
 */
public record TrafficSpec(long rps) {
    /** The largest rate accepted: one request per nanosecond. */
    public static final long MAX_RPS = 1_000_000_000L;

    public TrafficSpec {
        if (rps <= 0 || rps > MAX_RPS) {
            throw new InvalidConfigException("traffic.rps", Long.toString(rps),
                    "a whole number of requests per second from 1 to " + MAX_RPS);
        }
    }

    /** {@code floor(i * 1e9 / rps)}, exact for every i without overflow. */
    public long sendTimeNanos(long i) {
        long q = i / rps;
        long r = i % rps;
        return q * Durations.SECOND + (r * Durations.SECOND) / rps;
    }

    /** How many requests are sent before {@code nanos}: the least i with {@code sendTime(i) >= nanos}. */
    public long requestsBefore(long nanos) {
        // sendTime(i) < nanos  <=>  i * 1e9 < nanos * rps  (floor keeps the strict inequality on integers)
        long wholeSeconds = nanos / Durations.SECOND;
        long rest = nanos % Durations.SECOND;
        // i < (wholeSeconds * 1e9 + rest) * rps / 1e9 = wholeSeconds * rps + rest * rps / 1e9
        long base = wholeSeconds * rps;
        long frac = rest * rps; // < 1e18
        return base + (frac + Durations.SECOND - 1) / Durations.SECOND;
    }
}
