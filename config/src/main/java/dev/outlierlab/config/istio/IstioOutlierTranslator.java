package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Translates an Istio {@code OutlierDetection} (networking.istio.io, {@code trafficPolicy.outlierDetection})
 * into the Envoy settings istiod sends, rule by rule as {@code applyOutlierDetection} in istio/istio's
 * {@code pilot/pkg/networking/core/cluster_traffic_policy.go} does it, after the checks of
 * {@code validateOutlierDetection} in {@code pkg/config/validation/validation.go}:
 * <ul>
 *   <li>{@code enforcing_success_rate} is always 0 (success-rate ejection off);</li>
 *   <li>{@code consecutive5xxErrors: N} sets {@code consecutive_5xx} to N and its enforcement to 100, or to 0
 *       when N is 0; unset, Envoy's defaults (5, 100) apply;</li>
 *   <li>{@code consecutiveGatewayErrors: N} likewise for {@code consecutive_gateway_failure}; unset, Envoy's
 *       default enforcement 0 applies (detect-only);</li>
 *   <li>{@code interval} and {@code baseEjectionTime} are copied when set;</li>
 *   <li>{@code maxEjectionPercent} is copied only when above 0, so 0 gives Envoy's default 10;</li>
 *   <li>with {@code splitExternalLocalOriginErrors}: split mode on, {@code consecutiveLocalOriginFailures: N > 0}
 *       copied with enforcement 100 (unset or 0 leaves Envoy's defaults 5 and 100), and
 *       {@code enforcing_local_origin_success_rate} 0;</li>
 *   <li>{@code healthy_panic_threshold} is set to {@code minHealthPercent}, default 0: panic mode off;</li>
 *   <li>the deprecated {@code consecutiveErrors} is ignored (Istio only warns);</li>
 *   <li>{@code outlierDetectionHttpErrorCodes} (newer Istio) becomes an {@code error_matcher} in the cluster's
 *       {@code HttpProtocolOptions.outlier_detection} ({@code applyOutlierDetectionErrorCodes}): named as not
 *       modelled.</li>
 * </ul>
 */
final class IstioOutlierTranslator {
    /** The fields of Istio's OutlierDetection message (JSON names). */
    static final Set<String> FIELDS = Set.of(
            "consecutiveErrors",
            "splitExternalLocalOriginErrors",
            "consecutiveLocalOriginFailures",
            "consecutiveGatewayErrors",
            "consecutive5xxErrors",
            "interval",
            "baseEjectionTime",
            "maxEjectionPercent",
            "minHealthPercent",
            "outlierDetectionHttpErrorCodes");

    /** The result: Envoy settings, the panic threshold, each field's provenance, and warnings. */
    record Result(
            OutlierDetectionConfig config,
            double panicThresholdPercent,
            List<TranslatedField> fields,
            List<String> warnings,
            List<String> notes) {}

    private IstioOutlierTranslator() {}

    @SuppressWarnings("unchecked")
    static Result translate(Located node, String path) {
        return translate(node, path, DestinationRuleController.ISTIOD);
    }

    /**
     * Translates as {@code controller} does. kgateway (kgateway-dev/kgateway at commit
     * 06ff8b9d6ce36702df2b643b84d80cc7a3b6a3ba, {@code internal/kgateway/extensions2/plugins/destrule/
     * destrule_plugin.go}, {@code processUpstream}) follows istiod except that it sets no
     * {@code enforcing_success_rate} (Envoy's 100: success rate stays on) and no {@code enforcing_consecutive_5xx}
     * (Envoy's 100, even for {@code consecutive5xxErrors: 0}).
     */
    @SuppressWarnings("unchecked")
    static Result translate(Located node, String path, DestinationRuleController controller) {
        boolean kgateway = controller == DestinationRuleController.KGATEWAY;
        if (!(node.value() instanceof Map)) {
            throw new InputException(node.origin() + ": " + path + ": expected a mapping of Istio outlier settings ("
                    + String.join(", ", new TreeSet<>(FIELDS)) + ")");
        }
        Map<String, Located> od = (Map<String, Located>) node.value();
        for (Map.Entry<String, Located> e : od.entrySet()) {
            if (!FIELDS.contains(e.getKey())) {
                String near = Wording.nearest(e.getKey(), FIELDS);
                throw new InputException(e.getValue().origin() + ": unknown field '" + path + "." + e.getKey()
                        + "' (Istio's OutlierDetection has no field " + e.getKey() + ")"
                        + (near == null ? "" : "; did you mean " + near + "?")
                        + " Known fields: " + String.join(", ", new TreeSet<>(FIELDS)));
            }
        }
        Map<OutlierSetting, Long> set = new EnumMap<>(OutlierSetting.class);
        Map<OutlierSetting, String> from = new EnumMap<>(OutlierSetting.class);
        List<String> warnings = new ArrayList<>();

        if (kgateway) {
            from.put(OutlierSetting.ENFORCING_SUCCESS_RATE, "kgateway sets none: Envoy default 100, success rate on");
            Long n5xx = uint32(od, "consecutive5xxErrors", path);
            if (n5xx != null) {
                set.put(OutlierSetting.CONSECUTIVE_5XX, n5xx);
                from.put(OutlierSetting.CONSECUTIVE_5XX, "consecutive5xxErrors: " + n5xx);
                from.put(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, "kgateway sets none: Envoy default 100");
            }
        } else {
            set.put(OutlierSetting.ENFORCING_SUCCESS_RATE, 0L);
            from.put(OutlierSetting.ENFORCING_SUCCESS_RATE, "Istio always sets 0: success-rate ejection off");
            consecutive(
                    od,
                    "consecutive5xxErrors",
                    path,
                    OutlierSetting.CONSECUTIVE_5XX,
                    OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
                    set,
                    from);
        }
        consecutive(
                od,
                "consecutiveGatewayErrors",
                path,
                OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE,
                set,
                from);
        Long interval = duration(od, "interval", path);
        if (interval != null) {
            set.put(OutlierSetting.INTERVAL, interval);
            from.put(OutlierSetting.INTERVAL, "interval: " + text(od.get("interval")));
        }
        Long base = duration(od, "baseEjectionTime", path);
        if (base != null) {
            set.put(OutlierSetting.BASE_EJECTION_TIME, base);
            from.put(OutlierSetting.BASE_EJECTION_TIME, "baseEjectionTime: " + text(od.get("baseEjectionTime")));
        }
        Long maxPercent = percent(od, "maxEjectionPercent", path);
        if (maxPercent != null && maxPercent > 0) {
            set.put(OutlierSetting.MAX_EJECTION_PERCENT, maxPercent);
            from.put(OutlierSetting.MAX_EJECTION_PERCENT, "maxEjectionPercent: " + maxPercent);
        } else if (maxPercent != null) {
            from.put(
                    OutlierSetting.MAX_EJECTION_PERCENT,
                    "maxEjectionPercent: 0, which Istio leaves unset: Envoy default");
            warnings.add("maxEjectionPercent: 0 does not turn ejection off: Istio sends no max_ejection_percent, so "
                    + "Envoy's default 10 applies");
        }
        Boolean split = bool(od, "splitExternalLocalOriginErrors", path);
        Long local = uint32(od, "consecutiveLocalOriginFailures", path);
        if (!Boolean.TRUE.equals(split) && local != null && local > 0) {
            throw new InputException(od.get("consecutiveLocalOriginFailures").origin() + ": " + path
                    + ".consecutiveLocalOriginFailures: " + local + " is set but splitExternalLocalOriginErrors is not "
                    + "true; Istio rejects this DestinationRule (set splitExternalLocalOriginErrors: true)");
        }
        if (Boolean.TRUE.equals(split)) {
            set.put(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, 1L);
            from.put(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, "splitExternalLocalOriginErrors: true");
            if (local != null && local > 0) {
                set.put(OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE, local);
                from.put(OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE, "consecutiveLocalOriginFailures: " + local);
                set.put(OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE, 100L);
                from.put(
                        OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                        "consecutiveLocalOriginFailures: " + local + " (above 0, so Istio enforces it: 100)");
            } else {
                String why = local == null ? "unset" : "0, which Istio leaves unset";
                from.put(
                        OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                        "consecutiveLocalOriginFailures " + why + ": Envoy default");
                from.put(
                        OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                        "consecutiveLocalOriginFailures " + why + ": Envoy default");
                warnings.add("splitExternalLocalOriginErrors is on and consecutiveLocalOriginFailures is " + why
                        + ", so Envoy's defaults apply: a host is ejected after 5 consecutive local-origin failures "
                        + "(enforcing 100)");
            }
            set.put(OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE, 0L);
            from.put(
                    OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE,
                    "splitExternalLocalOriginErrors: true (Istio turns local-origin success rate off: 0)");
        }
        Located deprecated = od.get("consecutiveErrors");
        if (deprecated != null && deprecated.value() != null && !Long.valueOf(0).equals(deprecated.value())) {
            warnings.add("consecutiveErrors (" + text(deprecated) + ") is deprecated and has no effect: current Istio "
                    + "ignores it and only warns; use consecutive5xxErrors or consecutiveGatewayErrors");
        }
        Long minHealth = percent(od, "minHealthPercent", path);
        double panic = minHealth == null ? 0 : minHealth;

        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        set.forEach(b::set);
        OutlierDetectionConfig config;
        try {
            config = b.build();
        } catch (InvalidConfigException e) {
            throw new InputException(
                    node.origin() + ": " + path + ": Envoy rejects the translated settings: " + e.getMessage());
        }
        List<TranslatedField> fields = new ArrayList<>();
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.newerThanBundledApi() && !config.isExplicit(s)) {
                continue;
            }
            String value = String.valueOf(ScenarioWriter.settingValue(s, config.get(s)));
            String source = from.getOrDefault(
                    s,
                    s == OutlierSetting.MAX_EJECTION_TIME && base != null
                            ? "Envoy default: max(300s, base_ejection_time)"
                            : "Envoy default (no Istio field sets it)");
            fields.add(new TranslatedField("outlier_detection." + s.envoyName(), value, source));
        }
        fields.add(new TranslatedField(
                "common_lb_config.healthy_panic_threshold",
                number(panic),
                minHealth == null
                        ? "Istio default: minHealthPercent 0 (panic mode off)"
                        : "minHealthPercent: " + minHealth + (minHealth == 0 ? " (panic mode off)" : "")));
        List<String> notes = new ArrayList<>();
        Located codes = od.get("outlierDetectionHttpErrorCodes");
        if (codes != null && codes.value() != null) {
            if (!(codes.value() instanceof List<?> list)
                    || list.stream().anyMatch(x -> !(((Located) x).value() instanceof Long))) {
                throw error(codes, path + ".outlierDetectionHttpErrorCodes", "a list of HTTP status codes");
            }
            List<String> shown = new ArrayList<>();
            list.forEach(x -> shown.add(String.valueOf(((Located) x).value())));
            if (!shown.isEmpty()) {
                // applyOutlierDetectionErrorCodes: an error_matcher on the cluster's
                // HttpProtocolOptions.outlier_detection
                notes.add("outlierDetectionHttpErrorCodes [" + String.join(", ", shown) + "]: istiod sets "
                        + "HttpProtocolOptions.outlier_detection.error_matcher so that only responses with these codes "
                        + "count as errors toward consecutive5xxErrors and consecutiveGatewayErrors; the lab does not "
                        + "model error matching, and its findings assume Envoy's 5xx and gateway-error rules");
            }
        }
        return new Result(config, panic, fields, warnings, notes);
    }

    /** A consecutive-errors field: copied when set, with enforcement 100 above 0 and 0 at 0. */
    private static void consecutive(
            Map<String, Located> od,
            String key,
            String path,
            OutlierSetting count,
            OutlierSetting enforcing,
            Map<OutlierSetting, Long> set,
            Map<OutlierSetting, String> from) {
        Long n = uint32(od, key, path);
        if (n == null) {
            return;
        }
        set.put(count, n);
        from.put(count, key + ": " + n);
        set.put(enforcing, n > 0 ? 100L : 0L);
        from.put(
                enforcing, key + ": " + n + (n > 0 ? " (above 0, so Istio enforces it: 100)" : " (0 turns it off: 0)"));
    }

    private static Long uint32(Map<String, Located> od, String key, String path) {
        Located n = od.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        if (n.value() instanceof Long l && l >= 0 && l <= OutlierSetting.UINT32_MAX) {
            return l;
        }
        throw error(n, path + "." + key, "a whole number from 0 to " + OutlierSetting.UINT32_MAX);
    }

    private static Long percent(Map<String, Located> od, String key, String path) {
        Located n = od.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        if (n.value() instanceof Long l && l >= 0 && l <= 100) {
            return l;
        }
        throw error(n, path + "." + key, "a whole percentage from 0 to 100 (Istio rejects others)");
    }

    private static Boolean bool(Map<String, Located> od, String key, String path) {
        Located n = od.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        if (n.value() instanceof Boolean b) {
            return b;
        }
        throw error(n, path + "." + key, "true or false");
    }

    /** Istio's ValidateDuration: at least 1ms, whole milliseconds. */
    private static Long duration(Map<String, Located> od, String key, String path) {
        Located n = od.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        long nanos = n.value() instanceof String s ? GoDuration.parse(s.strip()) : -1;
        String allowed = "a duration such as 10s, 5m, 1h or 250ms, at least 1ms and in whole milliseconds "
                + "(Istio rejects others)";
        if (nanos < Durations.MILLISECOND || nanos % Durations.MILLISECOND != 0 || nanos > Durations.MAX_NANOS) {
            throw error(n, path + "." + key, allowed);
        }
        return nanos;
    }

    private static InputException error(Located n, String key, String allowed) {
        return new InputException(n.origin() + ": " + key + ": " + Wording.describe(n.value()) + " is not allowed; "
                + "expected " + allowed);
    }

    private static String text(Located n) {
        return String.valueOf(n.value());
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
