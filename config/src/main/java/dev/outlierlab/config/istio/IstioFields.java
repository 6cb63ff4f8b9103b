package dev.outlierlab.config.istio;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Istio's names for Envoy's outlier-detection fields, both ways: which field of a DestinationRule's
 * {@code trafficPolicy.outlierDetection} sets which Envoy field (as istiod's {@code applyOutlierDetection}
 * translates them, {@link IstioOutlierTranslator}). The one table behind the fixes said in a rule's own fields,
 * {@code --set} with Istio's names and the "did you mean" between the two vocabularies.
 */
public final class IstioFields {
    /**
     * Envoy path -> the Istio field that sets it; empty when istiod sets it by itself from another field (the
     * enforcement that comes with a consecutive-errors count above 0).
     */
    public static final Map<String, String> BY_ENVOY_PATH;

    /** Istio field -> the Envoy path it sets ({@code common_lb_config.healthy_panic_threshold} for minHealthPercent). */
    public static final Map<String, String> ENVOY_PATH_OF;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("outlier_detection.consecutive_5xx", "consecutive5xxErrors");
        m.put("outlier_detection.consecutive_gateway_failure", "consecutiveGatewayErrors");
        m.put("outlier_detection.interval", "interval");
        m.put("outlier_detection.base_ejection_time", "baseEjectionTime");
        m.put("outlier_detection.max_ejection_percent", "maxEjectionPercent");
        m.put("outlier_detection.split_external_local_origin_errors", "splitExternalLocalOriginErrors");
        m.put("outlier_detection.consecutive_local_origin_failure", "consecutiveLocalOriginFailures");
        m.put("common_lb_config.healthy_panic_threshold", "minHealthPercent");
        Map<String, String> back = new LinkedHashMap<>();
        m.forEach((envoy, istio) -> back.put(istio, envoy));
        m.put("outlier_detection.enforcing_consecutive_gateway_failure", "");
        m.put("outlier_detection.enforcing_consecutive_5xx", "");
        BY_ENVOY_PATH = Map.copyOf(m);
        ENVOY_PATH_OF = Map.copyOf(back);
    }

    private IstioFields() {}

    /** Every field of Istio's OutlierDetection message. */
    public static Set<String> names() {
        return IstioOutlierTranslator.FIELDS;
    }

    /**
     * The Envoy field name under {@code outlier_detection} (or the scenario's {@code cluster.panic_threshold}) that
     * an Istio field sets, for a "did you mean"; null when {@code istioName} is not one of Istio's.
     */
    public static String envoyKeyOf(String istioName) {
        String path = ENVOY_PATH_OF.get(istioName);
        if (path == null) {
            return null;
        }
        return path.startsWith("common_lb_config.") ? "cluster.panic_threshold" : path.substring(path.indexOf('.') + 1);
    }
}
