package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.RequestResult;
import java.util.List;

/**
 * A fault: during {@code [start, end)} the listed hosts fail {@code errorRatePpm} parts per million of their
 * requests, spread evenly (spec section 5). A failure is reported as HTTP {@code status}, or, when
 * {@code result} is set, as that local-origin result (e.g. a timeout). With {@code failsHealthCheck} the
 * hosts also fail active health checks during the window.
 */
public record FaultSpec(
        List<String> hosts,
        long startNanos,
        long endNanos,
        long errorRatePpm,
        int status,
        RequestResult result,
        boolean failsHealthCheck) {

    public static final long PPM = 1_000_000L;

    public FaultSpec {
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new InvalidConfigException("faults[].hosts", "[]", "at least one host (a count or a list of names)");
        }
        if (startNanos < 0) {
            throw new InvalidConfigException("faults[].start", Durations.format(startNanos), "a duration of 0 or more");
        }
        if (endNanos < startNanos) {
            throw new InvalidConfigException("faults[].end", Durations.format(endNanos),
                    "a time at or after start (" + Durations.format(startNanos) + ")");
        }
        if (errorRatePpm < 0 || errorRatePpm > PPM) {
            throw new InvalidConfigException("faults[].error_rate", Double.toString(errorRatePpm / 10_000.0),
                    "a percentage from 0 to 100 with at most 4 decimals");
        }
        if (status < 500 || status > 599) {
            throw new InvalidConfigException("faults[].status", Integer.toString(status), "an HTTP status from 500 to 599");
        }
    }

    public boolean activeAt(long nanos) {
        return nanos >= startNanos && nanos < endNanos;
    }

    /** The error rate in percent, for display. */
    public double errorRatePercent() {
        return errorRatePpm / 10_000.0;
    }

    /** Spec section 5: whether the request numbered {@code k} (from 0) within this fault fails. */
    public boolean fails(long k) {
        return ((k + 1) * errorRatePpm) / PPM > (k * errorRatePpm) / PPM;
    }

    /**
     * The longest run of consecutive failures in this fault's pattern (spec section 5): failures are spread
     * evenly, so with rate r below 100 % a run is at most {@code ceil(r / (1 - r))} long; at 100 % it never ends
     * ({@code Long.MAX_VALUE}). This is what consecutive-error detection can see of a partial failure.
     */
    public long longestFailureRun() {
        return longestFailureRun(errorRatePpm);
    }

    /** {@link #longestFailureRun()} for a rate in parts per million. */
    public static long longestFailureRun(long errorRatePpm) {
        if (errorRatePpm >= PPM) {
            return Long.MAX_VALUE;
        }
        long rest = PPM - errorRatePpm;
        return (errorRatePpm + rest - 1) / rest;
    }
}
