package dev.outlierlab.config.kube;

import dev.outlierlab.config.envoy.SourceLines;
import dev.outlierlab.config.istio.GoDuration;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Envoy Gateway's {@code BackendTrafficPolicy} (gateway.envoyproxy.io/v1alpha1): {@code spec.healthCheck.passive}
 * becomes the outlier detection of the clusters it targets, as Envoy Gateway builds it. Followed from
 * envoyproxy/gateway at commit d32f28294245e454d20f81d323d626a90e660c1e:
 * <ul>
 *   <li>{@code api/v1alpha1/healthcheck_types.go}: the CRD defaults, applied when {@code passive} is present
 *       (interval 3s, baseEjectionTime 30s, consecutive5XxErrors 5, consecutiveLocalOriginFailures 5,
 *       maxEjectionPercent 10, splitExternalLocalOriginErrors false, alwaysEjectOneEndpoint false;
 *       {@code panicThreshold} unset means Envoy's 50; active checks: interval 3s, unhealthyThreshold 3,
 *       healthyThreshold 1);</li>
 *   <li>{@code internal/gatewayapi/clustersettings.go} {@code buildPassiveHealthCheck}: the fields into the IR;</li>
 *   <li>{@code internal/xds/translator/cluster.go} {@code buildXdsOutlierDetection}: interval and
 *       base_ejection_time always; max_ejection_percent only above 0; consecutive_local_origin_failure and
 *       consecutive_5xx when set (always, by the defaults); consecutiveGatewayErrors sets
 *       consecutive_gateway_failure with enforcement 100; failurePercentageThreshold sets the threshold with
 *       enforce 100; no enforcing_success_rate, so Envoy's default 100 leaves success rate on; and
 *       {@code healthy_panic_threshold} only when {@code panicThreshold} is set and not 50.</li>
 * </ul>
 */
public final class EnvoyGatewayPolicies {
    private static final Set<String> PASSIVE = Set.of(
            "splitExternalLocalOriginErrors",
            "interval",
            "consecutiveLocalOriginFailures",
            "consecutiveGatewayErrors",
            "consecutive5XxErrors",
            "baseEjectionTime",
            "maxEjectionPercent",
            "failurePercentageThreshold",
            "alwaysEjectOneEndpoint");
    private static final Set<String> HEALTH_CHECK = Set.of("active", "passive", "panicThreshold");

    private EnvoyGatewayPolicies() {}

    /** The policy's outlier settings, or none when it has no {@code healthCheck.passive}. */
    public static List<TranslatedPolicy> read(Manifests.Resource r, String source, List<String> lines) {
        Located spec = r.get("spec");
        Located hcNode =
                spec != null && spec.value() instanceof Map<?, ?> m && m.get("healthCheck") instanceof Located l
                        ? l
                        : null;
        TranslatedPolicy p = translate(r, hcNode, "spec.healthCheck", source, lines);
        return p == null ? List.of() : List.of(p);
    }

    /**
     * The outlier settings of every {@code backendSettings.healthCheck.passive} in the resource: an
     * EnvoyExtensionPolicy's ext-proc and Wasm backends, a SecurityPolicy's remote JWKS, ext-auth and OIDC
     * providers, an EnvoyProxy's telemetry backends. Envoy Gateway builds each of those clusters' outlier
     * detection with the same {@code buildPassiveHealthCheck} as a BackendTrafficPolicy's
     * ({@code internal/gatewayapi/clustersettings.go}), so the same translation applies.
     */
    public static List<TranslatedPolicy> readBackendSettings(Manifests.Resource r, String source, List<String> lines) {
        List<TranslatedPolicy> out = new ArrayList<>();
        Located spec = r.get("spec");
        if (spec != null) {
            collect(r, spec, "spec", source, lines, out);
        }
        return out;
    }

    private static void collect(
            Manifests.Resource r,
            Located node,
            String path,
            String source,
            List<String> lines,
            List<TranslatedPolicy> out) {
        if (node.value() instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                Located child = (Located) e.getValue();
                String childPath = path + "." + e.getKey();
                if ("backendSettings".equals(e.getKey())
                        && child.value() instanceof Map<?, ?> bs
                        && bs.get("healthCheck") instanceof Located hc) {
                    TranslatedPolicy p = translate(r, hc, childPath + ".healthCheck", source, lines);
                    if (p != null) {
                        out.add(p);
                    }
                } else {
                    collect(r, child, childPath, source, lines, out);
                }
            }
        } else if (node.value() instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collect(r, (Located) list.get(i), path + "[" + i + "]", source, lines, out);
            }
        }
    }

    private static TranslatedPolicy translate(
            Manifests.Resource r, Located hcNode, String hcPath, String source, List<String> lines) {
        // healthCheck is one field among many of a BackendTrafficPolicy: only its own keys are checked
        ResourceFields hc = ResourceFields.of(hcNode, hcPath, HEALTH_CHECK);
        if (hc == null || hc.node("passive") == null) {
            return null;
        }
        Located passiveNode = hc.node("passive");
        ResourceFields p = ResourceFields.of(passiveNode, hc.path("passive"), PASSIVE);
        String path = hc.path("passive");
        Translation t = new Translation();
        long interval = or(p == null ? null : p.duration("interval"), 3 * Durations.SECOND);
        long base = or(p == null ? null : p.duration("baseEjectionTime"), 30 * Durations.SECOND);
        t.set(OutlierSetting.INTERVAL, interval, given(p, "interval", "3s"));
        t.set(OutlierSetting.BASE_EJECTION_TIME, base, given(p, "baseEjectionTime", "30s"));
        Boolean split = p == null ? null : p.bool("splitExternalLocalOriginErrors");
        t.set(
                OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS,
                Boolean.TRUE.equals(split) ? 1 : 0,
                given(p, "splitExternalLocalOriginErrors", "false"));
        Long maxPercent = p == null ? null : p.percent("maxEjectionPercent");
        long max = maxPercent == null ? 10 : maxPercent;
        if (max > 0) {
            t.set(OutlierSetting.MAX_EJECTION_PERCENT, max, given(p, "maxEjectionPercent", "10"));
        }
        t.set(
                OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                or(p == null ? null : p.uint32("consecutiveLocalOriginFailures"), 5L),
                given(p, "consecutiveLocalOriginFailures", "5"));
        t.set(
                OutlierSetting.CONSECUTIVE_5XX,
                or(p == null ? null : p.uint32("consecutive5XxErrors"), 5L),
                given(p, "consecutive5XxErrors", "5"));
        Long gateway = p == null ? null : p.uint32("consecutiveGatewayErrors");
        if (gateway != null) {
            t.set(OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE, gateway, "consecutiveGatewayErrors: " + gateway);
            t.set(
                    OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE,
                    100,
                    "consecutiveGatewayErrors is set, so " + "Envoy Gateway enforces it: 100");
        }
        Long fp = p == null ? null : p.percent("failurePercentageThreshold");
        if (fp != null) {
            t.set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, fp, "failurePercentageThreshold: " + fp);
            t.set(
                    OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                    100,
                    "failurePercentageThreshold is set, so Envoy " + "Gateway enforces it: 100");
        }
        Boolean one = p == null ? null : p.bool("alwaysEjectOneEndpoint");
        if (one != null) {
            t.set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, one ? 1 : 0, "alwaysEjectOneEndpoint: " + one);
        }
        OutlierDetectionConfig config = t.build(passiveNode, path);
        Long panicSet = hc.percent("panicThreshold");
        double panic = panicSet == null ? 50 : panicSet;
        if (panicSet != null && panicSet != 50) {
            t.other("common_lb_config.healthy_panic_threshold", Long.toString(panicSet), "panicThreshold: " + panicSet);
        }
        HealthCheckSpec active = active(hc);
        String kind = r.kind() == null ? "BackendTrafficPolicy" : r.kind();
        String name = (r.name() == null ? kind : r.name())
                + (hcPath.equals("spec.healthCheck")
                        ? ""
                        : " "
                                + hcPath.replaceFirst("^spec\\.", "")
                                        .replaceFirst("\\.backendSettings\\.healthCheck$", ""));
        return new TranslatedPolicy(
                kind,
                name,
                path,
                source,
                SourceLines.keyLine(lines, SourceLines.lineOf(passiveNode), "passive"),
                config,
                panic,
                active,
                t.fields(config),
                List.of());
    }

    private static HealthCheckSpec active(ResourceFields hc) {
        Located node = hc.node("active");
        if (node == null || !(node.value() instanceof Map<?, ?> map)) {
            return null;
        }
        // only the fields the lab models are read; the checker's own fields (http, tcp, grpc) are Envoy Gateway's
        long interval = 3 * Durations.SECOND;
        long unhealthy = 3;
        long healthy = 1;
        if (map.get("interval") instanceof Located i && i.value() instanceof String s) {
            long n = GoDuration.parse(s.strip());
            interval = n > 0 ? n : interval;
        }
        if (map.get("unhealthyThreshold") instanceof Located u && u.value() instanceof Long l) {
            unhealthy = l;
        }
        if (map.get("healthyThreshold") instanceof Located h && h.value() instanceof Long l) {
            healthy = l;
        }
        return new HealthCheckSpec(interval, unhealthy, healthy);
    }

    private static String given(ResourceFields p, String key, String defaultText) {
        Located n = p == null ? null : p.node(key);
        return n == null || n.value() == null ? "CRD default " + key + ": " + defaultText : key + ": " + n.value();
    }

    private static long or(Long value, long otherwise) {
        return value == null ? otherwise : value;
    }
}
