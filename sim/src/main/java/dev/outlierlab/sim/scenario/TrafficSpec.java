package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;

/**
 * Uniform traffic to the whole cluster: request {@code i} is sent at {@code floor(i * 1e9 / rps)} ns, by caller
 * {@code i mod clients}. {@code rps} is the whole cluster's rate, shared over the callers: 600 rps over 50
 * callers is 12 rps each. Each caller is its own detector (an Envoy sidecar, a gRPC channel, a gateway process)
 * seeing only its share; {@code clients = 1} is the lab model's single detector that sees all traffic.
 */
public record TrafficSpec(long rps, int clients) {
    /** The largest rate accepted: one request per nanosecond. */
    public static final long MAX_RPS = 1_000_000_000L;
    /** The most callers a scenario may have. */
    public static final int MAX_CLIENTS = 10_000;

    /** Traffic from one caller, the lab model's. */
    public TrafficSpec(long rps) {
        this(rps, 1);
    }

    public TrafficSpec {
        if (rps <= 0 || rps > MAX_RPS) {
            throw new InvalidConfigException(
                    "traffic.rps", Long.toString(rps), "a whole number of requests per second from 1 to " + MAX_RPS);
        }
        if (clients < 1 || clients > MAX_CLIENTS || clients > rps) {
            throw new InvalidConfigException(
                    "traffic.clients",
                    Integer.toString(clients),
                    "a whole number of callers from 1 to " + Math.min(MAX_CLIENTS, rps)
                            + (rps < MAX_CLIENTS
                                    ? " (at most traffic.rps, " + rps
                                            + ": every caller sends at least one request a second)"
                                    : ""));
        }
    }

    /** The same rate from {@code count} callers. */
    public TrafficSpec withClients(int count) {
        return new TrafficSpec(rps, count);
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
