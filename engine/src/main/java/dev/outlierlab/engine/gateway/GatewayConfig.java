package dev.outlierlab.engine.gateway;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.stage.StageMode;
import java.time.Duration;

/**
 * The gateway profile's settings (docs/gateway.md), immutable and validated: the
 * defaults are {@link #defaults()}. Invalid values throw {@link InvalidConfigException} with the key under
 * {@code gateway.}, the value and what is allowed.
 *
 * @param mode                off, shadow or prod
 * @param windowNanos         the rolling comparison window; a whole number of buckets
 * @param bucketNanos         the window's resolution
 * @param minRequests         attempts in the window before an endpoint is scored
 * @param stdevFactor         eject when the rate is below {@code mean - stdevFactor * stdev}
 * @param peerSet             whom the judged endpoint is compared with
 * @param minStdevPercent     below this spread (percentage points) the statistical rule does not fire
 * @param consecutiveFailures failures in a row that eject at once (the hard trip); 0 turns it off
 * @param ejectionTimeNanos   how long an ejection lasts: fixed, no backoff, no probe
 * @param processes           gateway processes, each with its own samples
 */
public record GatewayConfig(
        StageMode mode,
        long windowNanos,
        long bucketNanos,
        int minRequests,
        double stdevFactor,
        PeerSet peerSet,
        double minStdevPercent,
        int consecutiveFailures,
        long ejectionTimeNanos,
        int processes) {

    /** The most buckets one window may have, which bounds each endpoint's memory. */
    public static final long MAX_BUCKETS = 100_000;
    /** The most gateway processes a configuration may have. */
    public static final int MAX_PROCESSES = 1024;

    public GatewayConfig {
        if (mode == null) {
            throw new InvalidConfigException("gateway.mode", "null", "one of off, shadow, prod");
        }
        if (peerSet == null) {
            throw new InvalidConfigException("gateway.peer_set", "null", "one of all, others");
        }
        if (bucketNanos <= 0 || bucketNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "gateway.bucket", Durations.format(bucketNanos), "a duration greater than 0, such as 1s or 250ms");
        }
        if (windowNanos <= 0 || windowNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "gateway.window", Durations.format(windowNanos), "a duration greater than 0, such as 60s");
        }
        if (windowNanos % bucketNanos != 0) {
            throw new InvalidConfigException(
                    "gateway.window",
                    Durations.format(windowNanos),
                    "a whole number of buckets (bucket is " + Durations.format(bucketNanos) + "), such as "
                            + Durations.format(Math.max(1, windowNanos / bucketNanos) * bucketNanos));
        }
        if (windowNanos / bucketNanos > MAX_BUCKETS) {
            throw new InvalidConfigException(
                    "gateway.window",
                    Durations.format(windowNanos),
                    "at most " + MAX_BUCKETS + " buckets (bucket is " + Durations.format(bucketNanos) + ")");
        }
        if (minRequests < 1) {
            throw new InvalidConfigException(
                    "gateway.min_requests", Integer.toString(minRequests), "a whole number of 1 or more");
        }
        if (!(stdevFactor >= 0) || Double.isInfinite(stdevFactor)) {
            throw new InvalidConfigException(
                    "gateway.stdev_factor", Double.toString(stdevFactor), "a number of 0 or more, such as 2.0");
        }
        if (!(minStdevPercent >= 0) || minStdevPercent > 100) {
            throw new InvalidConfigException(
                    "gateway.min_stdev",
                    Double.toString(minStdevPercent),
                    "percentage points from 0 to 100, such as 1.0");
        }
        if (consecutiveFailures < 0) {
            throw new InvalidConfigException(
                    "gateway.consecutive_failures",
                    Integer.toString(consecutiveFailures),
                    "a whole number of 0 or more (0 turns the hard trip off)");
        }
        if (ejectionTimeNanos <= 0 || ejectionTimeNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "gateway.ejection_time",
                    Durations.format(ejectionTimeNanos),
                    "a duration greater than 0, such as 30s");
        }
        if (processes < 1 || processes > MAX_PROCESSES) {
            throw new InvalidConfigException(
                    "gateway.processes", Integer.toString(processes), "a whole number from 1 to " + MAX_PROCESSES);
        }
    }

    /** The default table: prod, 60 s window of 1 s buckets, 5 requests, 2σ over all, 1 point, 3 in a row, 30 s. */
    public static GatewayConfig defaults() {
        return new GatewayConfig(
                StageMode.PROD,
                60 * Durations.SECOND,
                Durations.SECOND,
                5,
                2.0,
                PeerSet.ALL,
                1.0,
                3,
                30 * Durations.SECOND,
                1);
    }

    /** The number of buckets in the window. */
    public int buckets() {
        return (int) (windowNanos / bucketNanos);
    }

    /** A builder starting from {@link #defaults()}, with {@link Duration}s for the times. */
    public static Builder builder() {
        return new Builder(defaults());
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    public GatewayConfig withMode(StageMode newMode) {
        return new GatewayConfig(
                newMode,
                windowNanos,
                bucketNanos,
                minRequests,
                stdevFactor,
                peerSet,
                minStdevPercent,
                consecutiveFailures,
                ejectionTimeNanos,
                processes);
    }

    /**
     * Collects the gateway settings by name instead of the record's ten positions; {@link #build()} validates
     * them all, and a refused value names its key ({@code gateway.window}, ...), as the constructor does.
     */
    public static final class Builder {
        private StageMode mode;
        private long windowNanos;
        private long bucketNanos;
        private int minRequests;
        private double stdevFactor;
        private PeerSet peerSet;
        private double minStdevPercent;
        private int consecutiveFailures;
        private long ejectionTimeNanos;
        private int processes;

        private Builder(GatewayConfig from) {
            mode = from.mode;
            windowNanos = from.windowNanos;
            bucketNanos = from.bucketNanos;
            minRequests = from.minRequests;
            stdevFactor = from.stdevFactor;
            peerSet = from.peerSet;
            minStdevPercent = from.minStdevPercent;
            consecutiveFailures = from.consecutiveFailures;
            ejectionTimeNanos = from.ejectionTimeNanos;
            processes = from.processes;
        }

        private static long nanos(String key, Duration d) {
            if (d == null) {
                throw new InvalidConfigException(key, "null", "a duration such as Duration.ofSeconds(30)");
            }
            try {
                return d.toNanos();
            } catch (ArithmeticException e) {
                return Long.MAX_VALUE;
            }
        }

        public Builder mode(StageMode value) {
            mode = value;
            return this;
        }

        public Builder window(Duration value) {
            windowNanos = nanos("gateway.window", value);
            return this;
        }

        public Builder bucket(Duration value) {
            bucketNanos = nanos("gateway.bucket", value);
            return this;
        }

        public Builder minRequests(int value) {
            minRequests = value;
            return this;
        }

        public Builder stdevFactor(double value) {
            stdevFactor = value;
            return this;
        }

        public Builder peerSet(PeerSet value) {
            peerSet = value;
            return this;
        }

        /** Percentage points. */
        public Builder minStdev(double percentagePoints) {
            minStdevPercent = percentagePoints;
            return this;
        }

        /** 0 turns the hard trip off. */
        public Builder consecutiveFailures(int value) {
            consecutiveFailures = value;
            return this;
        }

        public Builder ejectionTime(Duration value) {
            ejectionTimeNanos = nanos("gateway.ejection_time", value);
            return this;
        }

        public Builder processes(int value) {
            processes = value;
            return this;
        }

        public GatewayConfig build() {
            return new GatewayConfig(
                    mode,
                    windowNanos,
                    bucketNanos,
                    minRequests,
                    stdevFactor,
                    peerSet,
                    minStdevPercent,
                    consecutiveFailures,
                    ejectionTimeNanos,
                    processes);
        }
    }
}
