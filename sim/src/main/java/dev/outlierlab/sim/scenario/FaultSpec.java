package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.RequestResult;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * A fault: during {@code [start, end)} the listed hosts fail {@code errorRatePpm} parts per million of their
 * requests, spread as {@code pattern} says (docs/model.md): evenly, independently at random, or in bursts
 * whose mean length is {@code burstLengthMilli / 1000} failures. A failure is reported as HTTP {@code status},
 * or, when {@code result} is set, as that local-origin result (a timeout, a reset, ...), reported as Envoy's
 * HTTP router reports it ({@link FaultResult}). With a
 * {@code healthCheckFailure} the hosts also fail active health checks during the window, in that way (null: they
 * pass). A {@code degraded} fault fails nothing: the requests it picks are answered 200 with the
 * {@code x-envoy-degraded} header, which Envoy 1.38's {@code detect_degraded_hosts} reads (it takes no result and no
 * health-check failure). A {@code latencyNanos} above 0 is how long each request the fault picks takes until its
 * response headers (0: at once); only a response has one, so it takes no {@code result}. Of the profiles only Caddy's
 * {@code unhealthy_latency} reads it; the others count a response by its status whatever it took.
 */
public record FaultSpec(
        List<String> hosts,
        long startNanos,
        long endNanos,
        long errorRatePpm,
        int status,
        FaultResult result,
        HealthCheckFailure healthCheckFailure,
        FaultPattern pattern,
        long burstLengthMilli,
        boolean degraded,
        long latencyNanos) {

    public static final long PPM = 1_000_000L;
    /** The mean burst length when a scenario does not give one: 5 failures. */
    public static final long DEFAULT_BURST_LENGTH_MILLI = 5_000;
    /** The longest mean burst the lab accepts: a million failures. */
    public static final long MAX_BURST_LENGTH_MILLI = 1_000_000_000L;

    /** Whether the hosts fail active health checks during the window. */
    public boolean failsHealthCheck() {
        return healthCheckFailure != null;
    }

    public FaultSpec {
        Objects.requireNonNull(pattern, "pattern");
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty()) {
            throw new InvalidConfigException("faults[].hosts", "[]", "at least one host (a count or a list of names)");
        }
        if (startNanos < 0) {
            throw new InvalidConfigException("faults[].start", Durations.format(startNanos), "a duration of 0 or more");
        }
        if (endNanos < startNanos) {
            throw new InvalidConfigException(
                    "faults[].end",
                    Durations.format(endNanos),
                    "a time at or after start (" + Durations.format(startNanos) + ")");
        }
        if (errorRatePpm < 0 || errorRatePpm > PPM) {
            throw new InvalidConfigException(
                    "faults[].error_rate",
                    Double.toString(errorRatePpm / 10_000.0),
                    "a percentage from 0 to 100 with at most 4 decimals");
        }
        if (degraded && result != null) {
            throw new InvalidConfigException(
                    "faults[].result",
                    result.traceName(),
                    "nothing with kind: degraded (its requests are answered 200 with x-envoy-degraded); remove it");
        }
        if (degraded && healthCheckFailure != null) {
            throw new InvalidConfigException(
                    "faults[].fails_health_check",
                    healthCheckFailure.scenarioName(),
                    "false with kind: degraded (its hosts pass active health checks)");
        }
        if (latencyNanos < 0 || latencyNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "faults[].latency", Durations.format(latencyNanos), "a duration of 0 or more, such as 1500ms");
        }
        if (latencyNanos > 0 && result != null) {
            throw new InvalidConfigException(
                    "faults[].latency",
                    Durations.format(latencyNanos),
                    "no latency with result: " + result.traceName()
                            + " (a round trip that did not complete has no response); remove one of them");
        }
        if (status < 500 || status > 599) {
            throw new InvalidConfigException(
                    "faults[].status", Integer.toString(status), "an HTTP status from 500 to 599");
        }
        if (pattern == FaultPattern.BURSTS) {
            long shortest = shortestBurstLengthMilli(errorRatePpm);
            if (burstLengthMilli < shortest || burstLengthMilli > MAX_BURST_LENGTH_MILLI) {
                throw new InvalidConfigException(
                        "faults[].burst_length",
                        formatMilli(burstLengthMilli),
                        "a mean number of failures per burst from " + formatMilli(shortest)
                                + " to 1000000 with at most 3 decimals"
                                + (shortest > 1000
                                        ? " (at an error rate of " + errorRatePercent()
                                                + " % the runs of successes between bursts average at least one request only"
                                                + " if bursts average " + formatMilli(shortest) + " failures or more)"
                                        : ""));
            }
        }
    }

    /**
     * The shortest mean burst that a rate allows, in thousandths: at least one failure, and long enough that the
     * runs of successes between bursts average at least one request ({@code L >= r / (1 - r)}).
     */
    public static long shortestBurstLengthMilli(long errorRatePpm) {
        if (errorRatePpm >= PPM) {
            return 1000;
        }
        long rest = PPM - errorRatePpm;
        long ratio = (errorRatePpm * 1000 + rest - 1) / rest;
        return Math.max(1000, ratio);
    }

    /** The same fault on other hosts. */
    public FaultSpec withHosts(List<String> otherHosts) {
        return toBuilder().hosts(otherHosts).build();
    }

    /** The mean burst length in failures, for display. */
    public double burstLength() {
        return burstLengthMilli / 1000.0;
    }

    private static String formatMilli(long milli) {
        return BigDecimal.valueOf(milli, 3).stripTrailingZeros().toPlainString();
    }

    public boolean activeAt(long nanos) {
        return nanos >= startNanos && nanos < endNanos;
    }

    /** The error rate in percent, for display. */
    public double errorRatePercent() {
        return errorRatePpm / 10_000.0;
    }

    /** The even pattern (docs/model.md): whether the request numbered {@code k} (from 0) within this fault fails. */
    public boolean fails(long k) {
        return ((k + 1) * errorRatePpm) / PPM > (k * errorRatePpm) / PPM;
    }

    /**
     * The longest run of consecutive failures in the even pattern (docs/model.md): failures are spread
     * evenly, so with rate r below 100 % a run is at most {@code ceil(r / (1 - r))} long; at 100 % it never ends
     * ({@code Long.MAX_VALUE}). This is what consecutive-error detection can see of a partial failure. The
     * random and burst patterns have no longest run: any run has a chance ({@code Long.MAX_VALUE} unless the
     * rate is 0).
     */
    public long longestFailureRun() {
        if (pattern != FaultPattern.EVEN) {
            return errorRatePpm == 0 ? 0 : Long.MAX_VALUE;
        }
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

    /**
     * A builder with the scenario file's defaults: from 0, a 100 % error rate answered 503, no local-origin
     * result, passing health checks, the even pattern, bursts of {@link #DEFAULT_BURST_LENGTH_MILLI}, not degraded.
     * The hosts and the end of the window have no default.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this fault. */
    public Builder toBuilder() {
        return new Builder()
                .hosts(hosts)
                .window(startNanos, endNanos)
                .errorRatePpm(errorRatePpm)
                .status(status)
                .result(result)
                .healthCheckFailure(healthCheckFailure)
                .pattern(pattern)
                .burstLengthMilli(burstLengthMilli)
                .degraded(degraded)
                .latencyNanos(latencyNanos);
    }

    /** Collects a fault by name instead of by position; {@link #build()} validates it as the constructor does. */
    public static final class Builder {
        private List<String> hosts = List.of();
        private long startNanos;
        private long endNanos;
        private long errorRatePpm = PPM;
        private int status = 503;
        private FaultResult result;
        private HealthCheckFailure healthCheckFailure;
        private FaultPattern pattern = FaultPattern.EVEN;
        private long burstLengthMilli = DEFAULT_BURST_LENGTH_MILLI;
        private boolean degraded;
        private long latencyNanos;

        private Builder() {}

        public Builder hosts(List<String> value) {
            hosts = value;
            return this;
        }

        /** The window {@code [start, end)} in nanoseconds from the start of the run. */
        public Builder window(long start, long end) {
            startNanos = start;
            endNanos = end;
            return this;
        }

        public Builder startNanos(long value) {
            startNanos = value;
            return this;
        }

        public Builder endNanos(long value) {
            endNanos = value;
            return this;
        }

        public Builder errorRatePpm(long value) {
            errorRatePpm = value;
            return this;
        }

        public Builder status(int value) {
            status = value;
            return this;
        }

        /** How a failure is reported instead of the HTTP status (null: the status). */
        public Builder result(FaultResult value) {
            result = value;
            return this;
        }

        /** {@link #result(FaultResult)} from the engine's request result (null: the status). */
        public Builder result(RequestResult value) {
            result = FaultResult.of(value);
            return this;
        }

        /** How the hosts fail active health checks during the window (null: they pass). */
        public Builder healthCheckFailure(HealthCheckFailure value) {
            healthCheckFailure = value;
            return this;
        }

        /** Whether the hosts fail active health checks during the window, with an HTTP status. */
        public Builder failsHealthCheck(boolean value) {
            healthCheckFailure = value ? HealthCheckFailure.STATUS : null;
            return this;
        }

        public Builder pattern(FaultPattern value) {
            pattern = value;
            return this;
        }

        public Builder burstLengthMilli(long value) {
            burstLengthMilli = value;
            return this;
        }

        public Builder degraded(boolean value) {
            degraded = value;
            return this;
        }

        /** How long each request the fault picks takes until its response headers (0, the default: at once). */
        public Builder latencyNanos(long value) {
            latencyNanos = value;
            return this;
        }

        public FaultSpec build() {
            return new FaultSpec(
                    hosts,
                    startNanos,
                    endNanos,
                    errorRatePpm,
                    status,
                    result,
                    healthCheckFailure,
                    pattern,
                    burstLengthMilli,
                    degraded,
                    latencyNanos);
        }
    }
}
