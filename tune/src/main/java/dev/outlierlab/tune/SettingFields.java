package dev.outlierlab.tune;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A setting as the fields of the file that deploys it, in that file's names, units and order: what {@code tune --format
 * json} gives as a row's {@code "setting"} ({@link Target#fields}), and, for the control planes' resources (an Istio
 * DestinationRule's {@code trafficPolicy.outlierDetection}, an Envoy Gateway BackendTrafficPolicy's
 * {@code healthCheck.passive}, a Kuma MeshCircuitBreaker's {@code outlierDetection}), the block {@link EnvoyTarget}
 * writes into the resource, so that the two cannot say different things. Values are {@code Long}, {@code String},
 * {@code Boolean}, {@code BigDecimal} or a nested map, in insertion order, so the same setting gives the same bytes.
 */
public final class SettingFields {
    private SettingFields() {}

    /** Envoy's {@code outlier_detection} fields the search sets, in Envoy's names (an Envoy cluster's own). */
    public static Map<String, Object> envoy(Setting s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("consecutive_5xx", s.consecutive5xx());
        m.put("success_rate_stdev_factor", s.successRateStdevFactor());
        m.put("success_rate_request_volume", s.successRateRequestVolume());
        m.put("success_rate_minimum_hosts", s.successRateMinimumHosts());
        m.put("failure_percentage_threshold", s.failurePercentageThreshold());
        m.put("failure_percentage_request_volume", s.failurePercentageRequestVolume());
        m.put("failure_percentage_minimum_hosts", s.failurePercentageMinimumHosts());
        m.put("interval", Durations.format(s.intervalNanos()));
        m.put("base_ejection_time", Durations.format(s.baseEjectionTimeNanos()));
        m.put("max_ejection_percent", s.maxEjectionPercent());
        m.put("always_eject_one_host", s.alwaysEjectOneHost());
        return m;
    }

    /**
     * {@code fields} without the Envoy fields release {@code version} does not have ({@code always_eject_one_host}
     * before 1.31, {@code EnvoyVersion.addedIn}): what a row's {@code "setting"} says for that release.
     */
    static Map<String, Object> forRelease(Map<String, Object> fields, EnvoyVersion version) {
        EnvoyVersion added = EnvoyVersion.addedIn(OutlierSetting.ALWAYS_EJECT_ONE_HOST);
        if (version == null
                || added == null
                || version.atLeast(added)
                || !fields.containsKey("always_eject_one_host")) {
            return fields;
        }
        Map<String, Object> m = new LinkedHashMap<>(fields);
        m.remove("always_eject_one_host");
        return m;
    }

    /**
     * A DestinationRule's {@code trafficPolicy.outlierDetection} (Istio's {@code networking/v1} field names; Go
     * durations): {@code consecutive5xxErrors} (0 turns it off), {@code interval}, {@code baseEjectionTime},
     * {@code maxEjectionPercent} and, when the panic threshold is above 0, {@code minHealthPercent}.
     */
    static Map<String, Object> istio(Setting s, double panicPercent) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("consecutive5xxErrors", s.consecutive5xx());
        m.put("interval", go(s.intervalNanos()));
        m.put("baseEjectionTime", go(s.baseEjectionTimeNanos()));
        m.put("maxEjectionPercent", s.maxEjectionPercent());
        if (panicPercent > 0) {
            m.put("minHealthPercent", whole(panicPercent));
        }
        return m;
    }

    /**
     * A BackendTrafficPolicy's {@code healthCheck.passive} (Envoy Gateway's field names): {@code consecutive5XxErrors},
     * {@code interval}, {@code baseEjectionTime}, {@code maxEjectionPercent}, {@code failurePercentageThreshold} when
     * failure percentage is on and {@code alwaysEjectOneEndpoint} when set.
     */
    static Map<String, Object> envoyGateway(Setting s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("consecutive5XxErrors", Math.max(1, s.consecutive5xx()));
        m.put("interval", go(s.intervalNanos()));
        m.put("baseEjectionTime", go(s.baseEjectionTimeNanos()));
        m.put("maxEjectionPercent", s.maxEjectionPercent());
        if (s.failurePercentageThreshold() > 0) {
            m.put("failurePercentageThreshold", s.failurePercentageThreshold());
        }
        if (s.alwaysEjectOneHost()) {
            m.put("alwaysEjectOneEndpoint", true);
        }
        return m;
    }

    /**
     * A MeshCircuitBreaker's {@code default.outlierDetection} (Kuma's field names): {@code disabled}, {@code interval},
     * {@code baseEjectionTime}, {@code maxEjectionPercent}, {@code healthyPanicThreshold} when not Envoy's 50, and the
     * {@code detectors} that are on ({@code totalFailures.consecutive}, {@code successRate} with its
     * {@code standardDeviationFactor} as the string Kuma takes, {@code failurePercentage}).
     */
    static Map<String, Object> kuma(Setting s, double panicPercent) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("disabled", false);
        m.put("interval", go(s.intervalNanos()));
        m.put("baseEjectionTime", go(s.baseEjectionTimeNanos()));
        m.put("maxEjectionPercent", s.maxEjectionPercent());
        if (panicPercent != 50) {
            m.put("healthyPanicThreshold", whole(panicPercent));
        }
        Map<String, Object> detectors = new LinkedHashMap<>();
        if (s.consecutive5xx() > 0) {
            detectors.put("totalFailures", Map.of("consecutive", s.consecutive5xx()));
        }
        if (s.successRateStdevFactor() > 0) {
            Map<String, Object> sr = new LinkedHashMap<>();
            sr.put("minimumHosts", s.successRateMinimumHosts());
            sr.put("requestVolume", s.successRateRequestVolume());
            sr.put("standardDeviationFactor", Setting.factor(s.successRateStdevFactor()));
            detectors.put("successRate", sr);
        }
        if (s.failurePercentageThreshold() > 0) {
            Map<String, Object> fp = new LinkedHashMap<>();
            fp.put("minimumHosts", s.failurePercentageMinimumHosts());
            fp.put("requestVolume", s.failurePercentageRequestVolume());
            fp.put("threshold", s.failurePercentageThreshold());
            detectors.put("failurePercentage", fp);
        }
        if (!detectors.isEmpty()) {
            m.put("detectors", detectors);
        }
        return m;
    }

    /**
     * The block as YAML lines at this indent: a nested map under its key, a string that reads as a number quoted (Kuma's
     * {@code standardDeviationFactor: "1.9"}), every other value as it prints.
     */
    static void yaml(StringBuilder y, Map<String, Object> block, String indent) {
        block.forEach((k, v) -> {
            y.append(indent).append(k).append(':');
            if (v instanceof Map<?, ?> nested) {
                y.append('\n');
                @SuppressWarnings("unchecked")
                Map<String, Object> inner = (Map<String, Object>) nested;
                yaml(y, inner, indent + "  ");
            } else if (v instanceof String str && str.matches("-?[0-9.]+")) {
                y.append(" \"").append(str).append("\"\n");
            } else {
                y.append(' ').append(v).append('\n');
            }
        });
    }

    /** A number with at most four decimals, as the JSON writes figures. */
    static BigDecimal decimal(double d) {
        return BigDecimal.valueOf(d).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    /** A Go duration in whole milliseconds or seconds, e.g. {@code 10s}, {@code 250ms}. */
    static String go(long nanos) {
        long ms = nanos / Durations.MILLISECOND;
        return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
    }

    private static Object whole(double d) {
        return d == Math.rint(d) ? (Object) (long) d : BigDecimal.valueOf(d);
    }
}
