package dev.outlierlab.engine.envoy;

import java.util.Locale;

/**
 * One field of Envoy's {@code envoy.config.cluster.v3.OutlierDetection} that the engine models, with its
 * Envoy name, its kind, its default and the range Envoy's proto validation allows. This enum is the one
 * place that lists the settings: readers, writers, the {@code --set} option and the web lab's controls are
 * all driven from it.
 *
 * <p>Durations are held in nanoseconds; Envoy reads them in whole milliseconds
 * ({@code PROTOBUF_GET_MS_OR_DEFAULT}), so readers reject sub-millisecond values.
 */
public enum OutlierSetting {
    CONSECUTIVE_5XX(Kind.COUNT, 5, "consecutive 5xx responses that eject a host"),
    INTERVAL(
            Kind.DURATION, 10_000_000_000L, "time between ejection sweeps (success rate, failure percentage, returns)"),
    BASE_EJECTION_TIME(Kind.DURATION, 30_000_000_000L, "time a host stays out, multiplied by its ejection multiplier"),
    MAX_EJECTION_PERCENT(Kind.PERCENT, 10, "largest share of the cluster that may be ejected at once"),
    ENFORCING_CONSECUTIVE_5XX(Kind.PERCENT, 100, "chance in percent that a consecutive-5xx detection ejects"),
    ENFORCING_SUCCESS_RATE(Kind.PERCENT, 100, "chance in percent that a success-rate detection ejects"),
    SUCCESS_RATE_MINIMUM_HOSTS(Kind.COUNT, 5, "hosts with enough volume needed before success rate runs"),
    SUCCESS_RATE_REQUEST_VOLUME(Kind.COUNT, 100, "requests a host needs in one interval to be judged by success rate"),
    SUCCESS_RATE_STDEV_FACTOR(Kind.COUNT, 1900, "threshold = mean - (factor / 1000) * stdev"),
    CONSECUTIVE_GATEWAY_FAILURE(Kind.COUNT, 5, "consecutive 502/503/504 responses that detect a host"),
    ENFORCING_CONSECUTIVE_GATEWAY_FAILURE(Kind.PERCENT, 0, "chance in percent that a gateway-failure detection ejects"),
    SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS(Kind.BOOLEAN, 0, "count local-origin errors (timeouts, resets) separately"),
    CONSECUTIVE_LOCAL_ORIGIN_FAILURE(Kind.COUNT, 5, "consecutive local-origin failures that eject (split mode only)"),
    ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE(
            Kind.PERCENT, 100, "chance in percent that a local-origin consecutive detection ejects"),
    ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE(
            Kind.PERCENT, 100, "chance in percent that a local-origin success-rate detection ejects"),
    FAILURE_PERCENTAGE_THRESHOLD(Kind.PERCENT, 85, "failure percentage at or above which a host is detected"),
    ENFORCING_FAILURE_PERCENTAGE(Kind.PERCENT, 0, "chance in percent that a failure-percentage detection ejects"),
    ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN(
            Kind.PERCENT, 0, "chance in percent that a local-origin failure-percentage detection ejects"),
    FAILURE_PERCENTAGE_MINIMUM_HOSTS(Kind.COUNT, 5, "hosts with enough volume needed before failure percentage runs"),
    FAILURE_PERCENTAGE_REQUEST_VOLUME(
            Kind.COUNT, 50, "requests a host needs in one interval to be judged by failure percentage"),
    MAX_EJECTION_TIME(Kind.DURATION, 300_000_000_000L, "longest ejection; default max(300s, base_ejection_time)"),
    MAX_EJECTION_TIME_JITTER(Kind.DURATION, 0, "random extra ejection time, up to this much"),
    SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST(
            Kind.BOOLEAN, 1, "a passing active health check returns an ejected host"),
    ALWAYS_EJECT_ONE_HOST(Kind.BOOLEAN, 0, "eject one host even when the percentage cap admits none"),
    DETECT_DEGRADED_HOSTS(
            Kind.BOOLEAN,
            0,
            "mark a host answering 2xx with x-envoy-degraded as degraded (Envoy 1.38): "
                    + "deprioritized, not ejected, cleared with its own backoff");

    /**
     * Whether this field is newer than the bundled Envoy API (envoy api 1.0.49): it is written out (scenario JSON, Envoy
     * configs) only when set, and read from an Envoy config by name rather than through the proto.
     */
    public boolean newerThanBundledApi() {
        return this == DETECT_DEGRADED_HOSTS;
    }

    /** The shape of a setting's value. */
    public enum Kind {
        /** A non-negative whole number (Envoy's UInt32Value). */
        COUNT,
        /** A whole percentage from 0 to 100 (Envoy's UInt32Value with {@code lte: 100}). */
        PERCENT,
        /** A duration, held in nanoseconds (Envoy's google.protobuf.Duration). */
        DURATION,
        /** true or false, held as 1 or 0 (Envoy's bool or BoolValue). */
        BOOLEAN
    }

    /** Largest value of Envoy's UInt32Value. */
    public static final long UINT32_MAX = 4_294_967_295L;

    private final Kind kind;
    private final long defaultValue;
    private final String description;
    private final String envoyName;

    OutlierSetting(Kind kind, long defaultValue, String description) {
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.description = description;
        this.envoyName = name().toLowerCase(Locale.ROOT);
    }

    /** The field name in Envoy's API, e.g. {@code max_ejection_percent}. */
    public String envoyName() {
        return envoyName;
    }

    public Kind kind() {
        return kind;
    }

    /** Envoy's default (for {@link #MAX_EJECTION_TIME} the default when base_ejection_time is at most 300 s). */
    public long defaultValue() {
        return defaultValue;
    }

    /** One line for help texts and tooltips. */
    public String description() {
        return description;
    }

    /** The setting with this Envoy field name, or null. */
    public static OutlierSetting byEnvoyName(String name) {
        for (OutlierSetting s : values()) {
            if (s.envoyName.equals(name)) {
                return s;
            }
        }
        return null;
    }

    /** Words for "what is allowed", used in error messages. */
    public String allowedRange() {
        return switch (this) {
            case INTERVAL, BASE_EJECTION_TIME, MAX_EJECTION_TIME -> "a duration greater than 0, such as 10s or 250ms";
            case MAX_EJECTION_TIME_JITTER -> "a duration of 0 or more, such as 0s or 500ms";
            default ->
                switch (kind) {
                    case PERCENT -> "a whole number from 0 to 100";
                    case COUNT -> "a whole number from 0 to " + UINT32_MAX;
                    case BOOLEAN -> "true or false";
                    case DURATION -> "a duration";
                };
        };
    }
}
