package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * An immutable, validated set of outlier-detection settings: Envoy's {@code OutlierDetection} message with
 * every default applied, as Envoy's {@code DetectorConfig} constructor applies them. Build one with
 * {@link #builder()}; {@link Builder#build()} validates as Envoy does ({@code DetectorImpl::create} and the
 * proto's validation rules) and throws {@link InvalidConfigException} naming the field.
 */
public final class OutlierDetectionConfig {
    private static final OutlierSetting[] SETTINGS = OutlierSetting.values();

    private final long[] values;
    private final boolean[] explicit;

    private OutlierDetectionConfig(long[] values, boolean[] explicit) {
        this.values = values;
        this.explicit = explicit;
    }

    /** Envoy's defaults. */
    public static OutlierDetectionConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from these settings (explicitly set fields stay explicit). */
    public Builder toBuilder() {
        Builder b = new Builder();
        System.arraycopy(values, 0, b.values, 0, values.length);
        System.arraycopy(explicit, 0, b.explicit, 0, explicit.length);
        return b;
    }

    /** The effective value of a setting (durations in nanoseconds, booleans as 0 or 1). */
    public long get(OutlierSetting setting) {
        return values[setting.ordinal()];
    }

    /** Whether the setting was given explicitly rather than left to Envoy's default. */
    public boolean isExplicit(OutlierSetting setting) {
        return explicit[setting.ordinal()];
    }

    public boolean flag(OutlierSetting setting) {
        return values[setting.ordinal()] != 0;
    }

    /**
     * Every setting with its effective value, in Envoy's field order; a field newer than the bundled Envoy API
     * ({@link OutlierSetting#newerThanBundledApi()}) only when set.
     */
    public Map<OutlierSetting, Long> asMap() {
        Map<OutlierSetting, Long> map = new EnumMap<>(OutlierSetting.class);
        for (OutlierSetting s : SETTINGS) {
            if (!s.newerThanBundledApi() || explicit[s.ordinal()]) {
                map.put(s, values[s.ordinal()]);
            }
        }
        return Collections.unmodifiableMap(map);
    }

    public long consecutive5xx() {
        return get(OutlierSetting.CONSECUTIVE_5XX);
    }

    public long consecutiveGatewayFailure() {
        return get(OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE);
    }

    public long consecutiveLocalOriginFailure() {
        return get(OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE);
    }

    public long intervalNanos() {
        return get(OutlierSetting.INTERVAL);
    }

    public long baseEjectionTimeNanos() {
        return get(OutlierSetting.BASE_EJECTION_TIME);
    }

    public long maxEjectionTimeNanos() {
        return get(OutlierSetting.MAX_EJECTION_TIME);
    }

    public long maxEjectionTimeJitterNanos() {
        return get(OutlierSetting.MAX_EJECTION_TIME_JITTER);
    }

    public long maxEjectionPercent() {
        return get(OutlierSetting.MAX_EJECTION_PERCENT);
    }

    public boolean alwaysEjectOneHost() {
        return flag(OutlierSetting.ALWAYS_EJECT_ONE_HOST);
    }

    public boolean splitExternalLocalOriginErrors() {
        return flag(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS);
    }

    public boolean successfulActiveHealthCheckUnejectHost() {
        return flag(OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST);
    }

    public boolean detectDegradedHosts() {
        return flag(OutlierSetting.DETECT_DEGRADED_HOSTS);
    }

    public long successRateMinimumHosts() {
        return get(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS);
    }

    public long successRateRequestVolume() {
        return get(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME);
    }

    public long successRateStdevFactor() {
        return get(OutlierSetting.SUCCESS_RATE_STDEV_FACTOR);
    }

    public long failurePercentageThreshold() {
        return get(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD);
    }

    public long failurePercentageMinimumHosts() {
        return get(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS);
    }

    public long failurePercentageRequestVolume() {
        return get(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME);
    }

    /** The enforcement percentage that applies to a detection of this type. */
    public long enforcingPercent(EjectionType type) {
        return get(type.enforcingSetting());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutlierDetectionConfig other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("OutlierDetectionConfig{");
        for (OutlierSetting s : SETTINGS) {
            if (s.ordinal() > 0) {
                sb.append(", ");
            }
            sb.append(s.envoyName()).append('=').append(values[s.ordinal()]);
        }
        return sb.append('}').toString();
    }

    /** Collects settings; unset ones take Envoy's defaults. */
    public static final class Builder {
        private final long[] values = new long[SETTINGS.length];
        private final boolean[] explicit = new boolean[SETTINGS.length];

        private Builder() {
            for (OutlierSetting s : SETTINGS) {
                values[s.ordinal()] = s.defaultValue();
            }
        }

        /** Sets a value (durations in nanoseconds, booleans as 0 or 1). Range checks happen in {@link #build()}. */
        public Builder set(OutlierSetting setting, long value) {
            values[setting.ordinal()] = value;
            explicit[setting.ordinal()] = true;
            return this;
        }

        /**
         * Sets a duration setting ({@code interval}, {@code base_ejection_time}, {@code max_ejection_time},
         * {@code max_ejection_time_jitter}) from a {@link Duration}; other settings refuse one, naming
         * the setting.
         */
        public Builder set(OutlierSetting setting, Duration value) {
            if (setting.kind() != OutlierSetting.Kind.DURATION) {
                throw new InvalidConfigException(
                        setting.envoyName(),
                        String.valueOf(value),
                        "a " + setting.kind().name().toLowerCase(Locale.ROOT) + ", not a duration");
            }
            long nanos;
            try {
                nanos = value.toNanos();
            } catch (ArithmeticException e) {
                nanos = Long.MAX_VALUE;
            }
            return set(setting, nanos);
        }

        public Builder set(OutlierSetting setting, boolean value) {
            return set(setting, value ? 1 : 0);
        }

        /** Forgets an explicit value, so the default applies again. */
        public Builder unset(OutlierSetting setting) {
            values[setting.ordinal()] = setting.defaultValue();
            explicit[setting.ordinal()] = false;
            return this;
        }

        public boolean isExplicit(OutlierSetting setting) {
            return explicit[setting.ordinal()];
        }

        /**
         * Validates and applies the defaults that depend on other fields. Throws
         * {@link InvalidConfigException} for the first field Envoy would reject.
         */
        public OutlierDetectionConfig build() {
            long[] v = values.clone();
            int max = OutlierSetting.MAX_EJECTION_TIME.ordinal();
            int base = OutlierSetting.BASE_EJECTION_TIME.ordinal();
            for (OutlierSetting s : SETTINGS) {
                check(s, v[s.ordinal()]);
            }
            if (!explicit[max]) {
                v[max] = Math.max(OutlierSetting.MAX_EJECTION_TIME.defaultValue(), v[base]);
            } else if (v[max] < v[base]) {
                throw new InvalidConfigException(
                        "max_ejection_time",
                        Durations.format(v[max]),
                        "a duration of at least base_ejection_time (" + Durations.format(v[base])
                                + "): Envoy rejects max_ejection_time smaller than base_ejection_time");
            }
            return new OutlierDetectionConfig(v, explicit.clone());
        }

        private static void check(OutlierSetting s, long value) {
            boolean ok = switch (s.kind()) {
                case PERCENT -> value >= 0 && value <= 100;
                case COUNT -> value >= 0 && value <= OutlierSetting.UINT32_MAX;
                case BOOLEAN -> value == 0 || value == 1;
                case DURATION ->
                    s == OutlierSetting.MAX_EJECTION_TIME_JITTER
                            ? value >= 0 && value <= Durations.MAX_NANOS
                            : value > 0 && value <= Durations.MAX_NANOS;
            };
            if (!ok) {
                String shown = s.kind() == OutlierSetting.Kind.DURATION
                        ? Durations.format(value)
                        : s.kind() == OutlierSetting.Kind.BOOLEAN ? String.valueOf(value) : Long.toString(value);
                throw new InvalidConfigException(s.envoyName(), shown, s.allowedRange());
            }
        }
    }
}
