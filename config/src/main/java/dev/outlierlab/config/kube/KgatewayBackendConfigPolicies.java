package dev.outlierlab.config.kube;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.envoy.SourceLines;
import dev.outlierlab.config.istio.GoDuration;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kgateway's {@code BackendConfigPolicy} (gateway.kgateway.dev/v1alpha1): {@code spec.outlierDetection} becomes the
 * outlier detection of the clusters of the Services, Backends or Istio hostnames in {@code spec.targetRefs}, as
 * kgateway's BackendConfigPolicy plugin builds it. Followed from:
 * <ul>
 *   <li>kgateway-dev/kgateway {@code api/v1alpha1/kgateway/backend_config_policy_types.go} (commit
 *       007f559108cb3fddb9df18a6c18c7bf5ce638fad), {@code OutlierDetection}: the CRD defaults the API server writes
 *       when {@code outlierDetection} is present ({@code +kubebuilder:default}): consecutive5xx 5, interval 10s,
 *       baseEjectionTime 30s, maxEjectionPercent 10; {@code enforcingConsecutive5xx},
 *       {@code splitExternalLocalOriginErrors}, {@code consecutiveLocalOriginFailure} and
 *       {@code enforcingConsecutiveLocalOriginFailure} have no CRD default (their comments name Envoy's: 100, false,
 *       5, 100); {@code loadBalancer.healthyPanicThreshold} and {@code healthCheck} (interval and thresholds
 *       required);</li>
 *   <li>{@code translateOutlierDetection} in {@code pkg/kgateway/extensions2/plugins/backendconfigpolicy/outlierdetection.go}
 *       (read in the yth01/kgateway fork at commit fc25ef27db6701d0357f9046f9dfe1dfe303a598, and in
 *       kgateway-dev/kgateway's older {@code internal/kgateway/extensions2/plugins/backendconfigpolicy/outlierdetection.go}
 *       at b89ed7ad2d1c3e680c3f5b242c9e7f32a8d48c33): consecutive_5xx, interval, base_ejection_time and
 *       max_ejection_percent copied when set (always, by the CRD defaults), {@code maxEjectionPercent: 0} included;
 *       nothing else, so no {@code enforcing_success_rate} and Envoy's 100 leaves success rate on. The translation of
 *       the four newer fields was not in the stored source: they are read as copied to their Envoy fields, as
 *       kgateway's v2.5 release notes describe them;</li>
 *   <li>{@code translateLoadBalancerConfig} ({@code lb.go}): {@code healthyPanicThreshold} to
 *       {@code common_lb_config.healthy_panic_threshold} when set, else Envoy's 50.</li>
 * </ul>
 */
public final class KgatewayBackendConfigPolicies {
    private static final Set<String> OUTLIER = Set.of(
            "consecutive5xx",
            "enforcingConsecutive5xx",
            "splitExternalLocalOriginErrors",
            "consecutiveLocalOriginFailure",
            "enforcingConsecutiveLocalOriginFailure",
            "interval",
            "baseEjectionTime",
            "maxEjectionPercent");

    /**
     * One cluster a policy configures: the policy's settings for one target.
     *
     * @param targetKind {@code Service}, {@code Backend} or {@code Hostname}; null for a policy without targetRefs
     * @param targetName the target's name, or null
     */
    public record Targeted(TranslatedPolicy policy, String targetKind, String targetName) {}

    private KgatewayBackendConfigPolicies() {}

    /** The policy's outlier settings, one per {@code targetRefs} entry (one in all without them); none without {@code outlierDetection}. */
    public static List<Targeted> read(Manifests.Resource r, String source, List<String> lines) {
        Located spec = r.get("spec");
        if (spec == null
                || !(spec.value() instanceof Map<?, ?> s)
                || !(s.get("outlierDetection") instanceof Located odNode)) {
            return List.of();
        }
        ResourceFields od = ResourceFields.of(odNode, "spec.outlierDetection", OUTLIER);
        String path = "spec.outlierDetection";
        Translation t = new Translation();
        t.set(
                OutlierSetting.CONSECUTIVE_5XX,
                or(od == null ? null : od.uint32("consecutive5xx"), 5L),
                given(od, "consecutive5xx", "5"));
        t.set(
                OutlierSetting.INTERVAL,
                or(od == null ? null : od.duration("interval"), 10 * Durations.SECOND),
                given(od, "interval", "10s"));
        t.set(
                OutlierSetting.BASE_EJECTION_TIME,
                or(od == null ? null : od.duration("baseEjectionTime"), 30 * Durations.SECOND),
                given(od, "baseEjectionTime", "30s"));
        Long max = od == null ? null : od.percent("maxEjectionPercent");
        t.set(
                OutlierSetting.MAX_EJECTION_PERCENT,
                or(max, 10L),
                max != null && max == 0
                        ? "maxEjectionPercent: 0 (copied: Envoy then ejects no host)"
                        : given(od, "maxEjectionPercent", "10"));
        List<String> warnings = List.of();
        if (od != null) {
            Long e5 = od.percent("enforcingConsecutive5xx");
            if (e5 != null) {
                t.set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, e5, "enforcingConsecutive5xx: " + e5 + NEWER_NOTE);
            }
            Boolean split = od.bool("splitExternalLocalOriginErrors");
            if (split != null) {
                t.set(
                        OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS,
                        split ? 1 : 0,
                        "splitExternalLocalOriginErrors: " + split + NEWER_NOTE);
            }
            Long local = od.uint32("consecutiveLocalOriginFailure");
            if (local != null) {
                t.set(
                        OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                        local,
                        "consecutiveLocalOriginFailure: " + local + NEWER_NOTE);
            }
            Long eLocal = od.percent("enforcingConsecutiveLocalOriginFailure");
            if (eLocal != null) {
                t.set(
                        OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE,
                        eLocal,
                        "enforcingConsecutiveLocalOriginFailure: " + eLocal + NEWER_NOTE);
            }
        }
        OutlierDetectionConfig config = t.build(odNode, path);
        Map<?, ?> specMap = s;
        // only healthyPanicThreshold of the load balancer matters here; its other fields are kgateway's to check
        Located lbNode = specMap.get("loadBalancer") instanceof Located l ? l : null;
        ResourceFields lb = ResourceFields.of(
                lbNode,
                "spec.loadBalancer",
                lbNode != null && lbNode.value() instanceof Map<?, ?> lbMap ? keys(lbMap) : Set.of());
        Long panicSet = lb == null ? null : lb.percent("healthyPanicThreshold");
        double panic = panicSet == null ? 50 : panicSet;
        if (panicSet != null) {
            t.other(
                    "common_lb_config.healthy_panic_threshold",
                    Long.toString(panicSet),
                    "loadBalancer.healthyPanicThreshold: " + panicSet);
        }
        HealthCheckSpec active = healthCheck(specMap.get("healthCheck") instanceof Located h ? h : null);
        String name = r.name() == null ? "BackendConfigPolicy" : r.name();
        int line = SourceLines.keyLine(lines, SourceLines.lineOf(odNode), "outlierDetection");
        List<Targeted> out = new ArrayList<>();
        List<String[]> refs = targetRefs(specMap.get("targetRefs") instanceof Located refsNode ? refsNode : null);
        if (refs.isEmpty()) {
            out.add(new Targeted(
                    new TranslatedPolicy(
                            "BackendConfigPolicy",
                            name,
                            path,
                            source,
                            line,
                            config,
                            panic,
                            active,
                            t.fields(config),
                            warnings),
                    null,
                    null));
        }
        for (String[] ref : refs) {
            out.add(new Targeted(
                    new TranslatedPolicy(
                            "BackendConfigPolicy",
                            name + " (" + ref[0] + " " + ref[1] + ")",
                            path,
                            source,
                            line,
                            config,
                            panic,
                            active,
                            t.fields(config),
                            warnings),
                    ref[0],
                    ref[1]));
        }
        return out;
    }

    private static final String NEWER_NOTE = " (a newer field: its translation was not in the stored kgateway source; "
            + "read as copied, as kgateway's v2.5 release notes describe it)";

    private static Set<String> keys(Map<?, ?> m) {
        Set<String> out = new HashSet<>();
        m.keySet().forEach(k -> out.add(String.valueOf(k)));
        return out;
    }

    /** {@code (kind, name)} of each {@code targetRefs} entry; anything but a list of references is refused. */
    private static List<String[]> targetRefs(Located node) {
        List<String[]> out = new ArrayList<>();
        if (node == null || node.value() == null) {
            return out;
        }
        if (!(node.value() instanceof List<?> list)) {
            throw new InputException(node.origin() + ": targetRefs: " + Wording.describe(shown(node.value()))
                    + " is not allowed; expected a list of references such as - kind: Service, name: reviews");
        }
        for (Object o : list) {
            Located entry = (Located) o;
            if (!(entry.value() instanceof Map<?, ?> m
                    && m.get("name") instanceof Located n
                    && n.value() instanceof String name
                    && !name.isBlank())) {
                throw new InputException(entry.origin() + ": targetRefs: " + Wording.describe(shown(entry.value()))
                        + " is not allowed; expected a reference with a name (kind: Service, name: reviews)");
            }
            String kind = m.get("kind") instanceof Located k && k.value() instanceof String ks ? ks : "Service";
            out.add(new String[] {kind, name});
        }
        return out;
    }

    /** The most an active health check's interval may be, as a scenario's durations (10 years). */
    private static final long MAX_INTERVAL_NANOS = 10L * 365 * 24 * 3600 * 1_000_000_000L;
    /** The thresholds a health check may have (the scenario's range). */
    private static final long MAX_THRESHOLD = 1_000_000;

    /**
     * The active health check: {@code interval}, {@code unhealthyThreshold}, {@code healthyThreshold} (all required
     * by the CRD). A value given but out of range or not a number is refused with the allowed range, so that a
     * typo never turns the health check, and its warning, off.
     */
    private static HealthCheckSpec healthCheck(Located node) {
        if (node == null || !(node.value() instanceof Map<?, ?> map)) {
            return null;
        }
        if (!(map.get("interval") instanceof Located i)) {
            return null;
        }
        long interval = i.value() instanceof String s ? GoDuration.parse(s.strip()) : -1;
        if (interval <= 0 || interval > MAX_INTERVAL_NANOS) {
            throw new InputException(i.origin() + ": healthCheck.interval: " + Wording.describe(shown(i.value()))
                    + " is not allowed; expected a duration from 1ns to 87600h (10 years), such as 5s");
        }
        long unhealthy = threshold(map.get("unhealthyThreshold"), "unhealthyThreshold");
        long healthy = threshold(map.get("healthyThreshold"), "healthyThreshold");
        return unhealthy > 0 && healthy > 0 ? new HealthCheckSpec(interval, unhealthy, healthy) : null;
    }

    private static long threshold(Object node, String key) {
        if (!(node instanceof Located n)) {
            return 0;
        }
        if (!(n.value() instanceof Long l) || l < 1 || l > MAX_THRESHOLD) {
            throw new InputException(n.origin() + ": healthCheck." + key + ": " + Wording.describe(shown(n.value()))
                    + " is not allowed; expected a whole number from 1 to " + MAX_THRESHOLD);
        }
        return l;
    }

    /** A value for a message: a long number in scientific form, any text cut short. */
    private static Object shown(Object value) {
        if (value instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        return value instanceof String s ? Wording.shortPrefix(s) : value;
    }

    private static String given(ResourceFields p, String key, String defaultText) {
        Located n = p == null ? null : p.node(key);
        return n == null || n.value() == null ? "CRD default " + key + ": " + defaultText : key + ": " + n.value();
    }

    private static long or(Long value, long otherwise) {
        return value == null ? otherwise : value;
    }
}
