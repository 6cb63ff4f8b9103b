package dev.outlierlab.engine.grpc;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import java.util.Objects;

/**
 * The settings of gRPC's outlier-detection policy (gRFC A50's {@code OutlierDetectionLoadBalancingConfig},
 * grpc-java's {@code OutlierDetectionLoadBalancerConfig}), immutable and validated in one place: durations at
 * least 0 (the interval above 0, as a timer with no delay would never let a call through), percentages at
 * most 100. A null {@code successRate} or {@code failurePercentage} means that algorithm is off, as in the
 * service config; with both off nothing is counted and no sweep runs.
 *
 * @param implementation whose rules apply where the gRPC libraries differ
 */
public record GrpcOutlierConfig(
        long intervalNanos,
        long baseEjectionTimeNanos,
        long maxEjectionTimeNanos,
        int maxEjectionPercent,
        SuccessRateEjection successRate,
        FailurePercentageEjection failurePercentage,
        GrpcImplementation implementation) {

    /** A50's top-level defaults. */
    public static final long DEFAULT_INTERVAL_NANOS = 10 * Durations.SECOND;

    public static final long DEFAULT_BASE_EJECTION_TIME_NANOS = 30 * Durations.SECOND;
    public static final long DEFAULT_MAX_EJECTION_TIME_NANOS = 300 * Durations.SECOND;
    public static final int DEFAULT_MAX_EJECTION_PERCENT = 10;

    public GrpcOutlierConfig {
        Objects.requireNonNull(implementation, "implementation");
        if (intervalNanos <= 0 || intervalNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "interval", Durations.format(intervalNanos), "a duration greater than 0 (gRPC's default is 10s)");
        }
        checkDuration("base_ejection_time", baseEjectionTimeNanos);
        checkDuration("max_ejection_time", maxEjectionTimeNanos);
        checkRange("max_ejection_percent", maxEjectionPercent, 100);
    }

    /** A50's defaults with both algorithms off (a config that only wraps its child policy). */
    public static GrpcOutlierConfig defaults() {
        return new GrpcOutlierConfig(
                DEFAULT_INTERVAL_NANOS,
                DEFAULT_BASE_EJECTION_TIME_NANOS,
                DEFAULT_MAX_EJECTION_TIME_NANOS,
                DEFAULT_MAX_EJECTION_PERCENT,
                null,
                null,
                GrpcImplementation.JAVA);
    }

    /** Whether either algorithm is configured (grpc-java's {@code outlierDetectionEnabled()}). */
    public boolean enabled() {
        return successRate != null || failurePercentage != null;
    }

    public GrpcOutlierConfig withImplementation(GrpcImplementation value) {
        return new GrpcOutlierConfig(
                intervalNanos,
                baseEjectionTimeNanos,
                maxEjectionTimeNanos,
                maxEjectionPercent,
                successRate,
                failurePercentage,
                value);
    }

    public GrpcOutlierConfig withMaxEjectionPercent(int value) {
        return new GrpcOutlierConfig(
                intervalNanos,
                baseEjectionTimeNanos,
                maxEjectionTimeNanos,
                value,
                successRate,
                failurePercentage,
                implementation);
    }

    /**
     * How long an ejection with this multiplier lasts: {@code min(base * multiplier, max(base, max))}, in the
     * implementation's arithmetic (C-core in whole milliseconds; Java and Go in 64-bit nanoseconds, wrapping as
     * they do on overflow).
     */
    public long ejectionNanos(long multiplier) {
        if (implementation == GrpcImplementation.CORE) {
            long baseMillis = baseEjectionTimeNanos / 1_000_000;
            long maxMillis = maxEjectionTimeNanos / 1_000_000;
            long millis = Math.min(baseMillis * multiplier, Math.max(baseMillis, maxMillis));
            return millis * 1_000_000;
        }
        return Math.min(baseEjectionTimeNanos * multiplier, Math.max(baseEjectionTimeNanos, maxEjectionTimeNanos));
    }

    static void checkRange(String key, long value, long max) {
        if (value < 0 || value > max) {
            throw new InvalidConfigException(
                    key, Long.toString(value), max == 100 ? "an integer from 0 to 100" : "an integer of at least 0");
        }
    }

    private static void checkDuration(String key, long nanos) {
        if (nanos < 0 || nanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(key, Durations.format(nanos), "a duration of at least 0");
        }
    }
}
