package dev.outlierlab.config.kube;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.envoy.SourceLines;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kuma's {@code MeshCircuitBreaker} (kuma.io/v1alpha1, Kubernetes or universal format): each entry of
 * {@code spec.to}, {@code spec.rules} (and the older {@code spec.from}) with {@code default.outlierDetection}
 * becomes the outlier detection of the clusters it targets, as Kuma builds it. Followed from kumahq/kuma at
 * commit 348b6528bc234b3c4bd7f22ad7c5bf950d6149fc, {@code pkg/plugins/policies/meshcircuitbreaker/plugin/xds/
 * configurer.go} ({@code configureOutlierDetection} and the {@code configure*} functions it calls):
 * <ul>
 *   <li>{@code disabled: true}: no outlier detection;</li>
 *   <li>{@code interval}, {@code baseEjectionTime}, {@code maxEjectionPercent}, {@code splitExternalAndLocalErrors}
 *       copied when set (Envoy's defaults otherwise);</li>
 *   <li>each detector absent sets its enforcement to 0: without {@code detectors.totalFailures.consecutive},
 *       {@code enforcing_consecutive_5xx} is 0; likewise gateway and local-origin failures; without
 *       {@code successRate}, {@code enforcing_success_rate} and {@code enforcing_local_origin_success_rate} are 0;
 *       without {@code failurePercentage}, both failure-percentage enforcements are 0. A detector present is
 *       enforced at 100 with its settings copied;</li>
 *   <li>{@code successRate.standardDeviationFactor} is multiplied by 1000 into {@code success_rate_stdev_factor}
 *       (so 1.9 gives 1900, and 1900 gives 1900000);</li>
 *   <li>{@code healthyPanicThreshold} sets {@code healthy_panic_threshold} when given (Envoy's 50 otherwise).</li>
 * </ul>
 */
public final class KumaCircuitBreakers {
    private static final Set<String> OUTLIER = Set.of(
            "disabled",
            "interval",
            "baseEjectionTime",
            "maxEjectionPercent",
            "splitExternalAndLocalErrors",
            "detectors",
            "healthyPanicThreshold");
    private static final Set<String> DETECTORS =
            Set.of("totalFailures", "gatewayFailures", "localOriginFailures", "successRate", "failurePercentage");

    /** The largest factor whose thousandths fit Envoy's uint32 success_rate_stdev_factor. */
    private static final BigDecimal MAX_FACTOR = new BigDecimal("4294967.295");

    private KumaCircuitBreakers() {}

    public static List<TranslatedPolicy> read(Manifests.Resource r, String source, List<String> lines) {
        List<TranslatedPolicy> out = new ArrayList<>();
        Located spec = r.get("spec");
        if (spec == null || !(spec.value() instanceof Map<?, ?> specMap)) {
            return out;
        }
        String name = r.name() == null ? "MeshCircuitBreaker" : r.name();
        for (String list : List.of("to", "from", "rules")) {
            if (!(specMap.get(list) instanceof Located entries) || !(entries.value() instanceof List<?> items)) {
                continue;
            }
            for (int i = 0; i < items.size(); i++) {
                Located entry = (Located) items.get(i);
                String path = "spec." + list + "[" + i + "].default.outlierDetection";
                Located od = child(child(entry, "default"), "outlierDetection");
                if (od == null) {
                    continue;
                }
                String label = name + "/" + list + "[" + i + "]" + target(entry);
                out.add(translate(od, path, label, source, lines));
            }
        }
        return out;
    }

    private static TranslatedPolicy translate(
            Located node, String path, String label, String source, List<String> lines) {
        int line = SourceLines.keyLine(lines, SourceLines.lineOf(node), "outlierDetection");
        ResourceFields od = ResourceFields.of(node, path, OUTLIER);
        if (od == null || Boolean.TRUE.equals(od.bool("disabled"))) {
            return new TranslatedPolicy(
                    "MeshCircuitBreaker", label, path, source, line, null, 50, null, List.of(), List.of());
        }
        Translation t = new Translation();
        Long interval = od.duration("interval");
        if (interval != null) {
            t.set(OutlierSetting.INTERVAL, interval, "interval: " + od.text(od.node("interval")));
        }
        Long base = od.duration("baseEjectionTime");
        if (base != null) {
            t.set(OutlierSetting.BASE_EJECTION_TIME, base, "baseEjectionTime: " + od.text(od.node("baseEjectionTime")));
        }
        Long max = od.uint32("maxEjectionPercent");
        if (max != null) {
            t.set(OutlierSetting.MAX_EJECTION_PERCENT, max, "maxEjectionPercent: " + max);
        }
        Boolean split = od.bool("splitExternalAndLocalErrors");
        if (split != null) {
            t.set(
                    OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS,
                    split ? 1 : 0,
                    "splitExternalAndLocalErrors: " + split);
        }
        ResourceFields d = ResourceFields.of(od.node("detectors"), od.path("detectors"), DETECTORS);
        consecutive(t, d, "totalFailures", OutlierSetting.CONSECUTIVE_5XX, OutlierSetting.ENFORCING_CONSECUTIVE_5XX);
        consecutive(
                t,
                d,
                "localOriginFailures",
                OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE);
        consecutive(
                t,
                d,
                "gatewayFailures",
                OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE,
                OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE);
        successRate(t, d);
        failurePercentage(t, d);
        OutlierDetectionConfig config = t.build(node, path);
        double panic = 50;
        BigDecimal panicSet = od.decimal("healthyPanicThreshold");
        if (panicSet != null) {
            panic = panicSet.doubleValue();
            t.other(
                    "common_lb_config.healthy_panic_threshold",
                    panicSet.toPlainString(),
                    "healthyPanicThreshold: " + od.text(od.node("healthyPanicThreshold")));
        }
        return new TranslatedPolicy(
                "MeshCircuitBreaker", label, path, source, line, config, panic, null, t.fields(config), List.of());
    }

    private static void consecutive(
            Translation t, ResourceFields d, String key, OutlierSetting threshold, OutlierSetting enforcing) {
        ResourceFields f = d == null ? null : ResourceFields.of(d.node(key), d.path(key), Set.of("consecutive"));
        Long n = f == null ? null : f.uint32("consecutive");
        if (n == null) {
            t.set(enforcing, 0, "no detectors." + key + ".consecutive, so Kuma sets 0: off");
            return;
        }
        t.set(enforcing, 100, "detectors." + key + " is set, so Kuma enforces it: 100");
        t.set(threshold, n, "detectors." + key + ".consecutive: " + n);
    }

    private static void successRate(Translation t, ResourceFields d) {
        ResourceFields f = d == null
                ? null
                : ResourceFields.of(
                        d.node("successRate"),
                        d.path("successRate"),
                        Set.of("minimumHosts", "requestVolume", "standardDeviationFactor"));
        if (f == null) {
            t.set(OutlierSetting.ENFORCING_SUCCESS_RATE, 0, "no detectors.successRate, so Kuma sets 0: off");
            t.set(
                    OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE,
                    0,
                    "no detectors.successRate, so Kuma sets 0: off");
            return;
        }
        t.set(OutlierSetting.ENFORCING_SUCCESS_RATE, 100, "detectors.successRate is set, so Kuma enforces it: 100");
        t.set(OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE, 100, "detectors.successRate is set: 100");
        copy(t, f, "minimumHosts", OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS, "successRate");
        copy(t, f, "requestVolume", OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, "successRate");
        BigDecimal factor = f.decimal("standardDeviationFactor");
        if (factor != null) {
            // Kuma: uint32(dec.Mul(1000).IntPart())
            // compared with uint32's range before the exact product: 1e100000000 must not wrap to 0
            if (factor.signum() < 0 || factor.compareTo(MAX_FACTOR) > 0) {
                throw new InputException(
                        f.node("standardDeviationFactor").origin() + ": " + f.path("standardDeviationFactor")
                                + ": " + Wording.describe(factor) + " is not allowed; expected a "
                                + "factor from 0 to 4294967.295 (Kuma stores it in thousandths, as a uint32)");
            }
            long thousandths = factor.multiply(BigDecimal.valueOf(1000)).longValue();
            t.set(
                    OutlierSetting.SUCCESS_RATE_STDEV_FACTOR,
                    thousandths,
                    "detectors.successRate.standardDeviationFactor: " + f.text(f.node("standardDeviationFactor"))
                            + " (Kuma multiplies it by 1000)");
        }
    }

    private static void failurePercentage(Translation t, ResourceFields d) {
        ResourceFields f = d == null
                ? null
                : ResourceFields.of(
                        d.node("failurePercentage"),
                        d.path("failurePercentage"),
                        Set.of("minimumHosts", "requestVolume", "threshold"));
        if (f == null) {
            t.set(
                    OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                    0,
                    "no detectors.failurePercentage, so Kuma sets 0: off");
            t.set(
                    OutlierSetting.ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN,
                    0,
                    "no detectors.failurePercentage, so Kuma sets 0: off");
            return;
        }
        t.set(
                OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                100,
                "detectors.failurePercentage is set, so Kuma enforces " + "it: 100");
        t.set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN, 100, "detectors.failurePercentage is set: 100");
        copy(t, f, "minimumHosts", OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS, "failurePercentage");
        copy(t, f, "requestVolume", OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, "failurePercentage");
        copy(t, f, "threshold", OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, "failurePercentage");
    }

    private static void copy(Translation t, ResourceFields f, String key, OutlierSetting s, String detector) {
        Long v = f.uint32(key);
        if (v != null) {
            t.set(s, v, "detectors." + detector + "." + key + ": " + v);
        }
    }

    private static String target(Located entry) {
        Located ref = child(entry, "targetRef");
        if (ref == null || !(ref.value() instanceof Map<?, ?> m)) {
            return "";
        }
        Object kind = m.get("kind") instanceof Located k ? k.value() : null;
        Object n = m.get("name") instanceof Located l ? l.value() : null;
        return " (" + kind + (n == null ? "" : " " + n) + ")";
    }

    private static Located child(Located node, String key) {
        return node != null && node.value() instanceof Map<?, ?> m && m.get(key) instanceof Located l ? l : null;
    }
}
