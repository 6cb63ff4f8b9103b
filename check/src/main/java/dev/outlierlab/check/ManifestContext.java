package dev.outlierlab.check;

import dev.outlierlab.config.envoy.EnvoyConfig;
import dev.outlierlab.config.envoy.SourceLines;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.kube.CiliumEnvoyConfigs;
import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the other resources of a manifest file say about its outlier detection: which controller translates
 * its DestinationRules and why ({@code --controller}, or a Gateway of class {@code kgateway}), Istio locality failover that needs outlier
 * detection, retries (a VirtualService's, a CiliumEnvoyConfig route's) that feed the consecutive-error counters,
 * and outlier settings in a kind that is not read.
 */
final class ManifestContext {
    private ManifestContext() {}

    /**
     * Which controller translates the file's DestinationRules and why, for the report: {@code --controller} when
     * given, else kgateway when the file's Gateway names kgateway's class. Null when istiod is assumed for want of
     * anything saying otherwise (the listing then says "translated by istiod").
     */
    static String controllerReason(DestinationRuleController forced, DestinationRuleController fromFile) {
        if (forced == DestinationRuleController.KGATEWAY) {
            return "translated as kgateway translates a DestinationRule, as --controller kgateway says (istiod would "
                    + "turn success rate off and follow consecutive5xxErrors: 0 with enforcement 0)";
        }
        if (forced == DestinationRuleController.ISTIOD) {
            return "translated as istiod translates a DestinationRule, as --controller istiod says"
                    + (fromFile == DestinationRuleController.KGATEWAY
                            ? " (the file's Gateway has gatewayClassName "
                                    + "kgateway, which alone would have chosen kgateway)"
                            : "");
        }
        if (fromFile == DestinationRuleController.KGATEWAY) {
            return "translated as kgateway translates a DestinationRule: the file's Gateway has gatewayClassName "
                    + "kgateway (istiod would turn success rate off and follow consecutive5xxErrors: 0 with "
                    + "enforcement 0; --controller istiod says otherwise)";
        }
        return null;
    }

    /**
     * {@link Rule#LOCALITY_FAILOVER_NEEDS_OUTLIER_DETECTION}: istiod applies {@code failover} and
     * {@code failoverPriority} only to a cluster with outlier detection (istio/istio
     * {@code pilot/pkg/networking/core/loadbalancer/loadbalancer.go}, {@code applyLocalityLoadBalancer}:
     * "Failover should only be applied with outlier detection, or traffic will never failover").
     */
    static Optional<Finding> localityFailover(
            Manifests.Resource r, List<IstioPolicy> policies, String source, List<String> lines) {
        Map<?, ?> policy = map((Located) map(r.get("spec")).get("trafficPolicy"));
        Map<?, ?> lb = map((Located) policy.get("loadBalancer"));
        Located locality = (Located) lb.get("localityLbSetting");
        Map<?, ?> setting = map(locality);
        boolean failover = nonEmpty(setting.get("failover")) || nonEmpty(setting.get("failoverPriority"));
        if (!failover
                || policies.stream().anyMatch(p -> p.subset() == null && p.port() == null && p.hasOutlierDetection())) {
            return Optional.empty();
        }
        int line = SourceLines.keyLine(lines, SourceLines.lineOf(locality), "localityLbSetting");
        return Optional.of(new Finding(
                Rule.LOCALITY_FAILOVER_NEEDS_OUTLIER_DETECTION,
                Severity.WARNING,
                r.name() == null ? "DestinationRule" : r.name(),
                "localityLbSetting sets failover, but the rule has no "
                        + "outlierDetection: istiod applies locality failover only to a cluster with outlier detection, so "
                        + "traffic stays in its locality however unhealthy the endpoints there are",
                Map.of(),
                "trafficPolicy:\n  outlierDetection:\n    consecutive5xxErrors: 5   # failover moves traffic once hosts are ejected\n",
                source,
                line,
                List.of()));
    }

    /** {@link Rule#RETRIES_FEED_CONSECUTIVE} for each VirtualService route that retries on 5xx in a file with outlier detection. */
    static List<Finding> virtualServiceRetries(
            List<Manifests.Resource> resources, List<CheckTarget> targets, String source, List<String> lines) {
        List<Finding> out = new ArrayList<>();
        if (targets.stream().noneMatch(CheckTarget::hasOutlierDetection)) {
            return out;
        }
        for (Manifests.Resource r : resources) {
            if (!"VirtualService".equals(r.kind())
                    || !(map(r.get("spec")).get("http") instanceof Located http)
                    || !(http.value() instanceof List<?> routes)) {
                continue;
            }
            for (int i = 0; i < routes.size(); i++) {
                Located retries = (Located) map((Located) routes.get(i)).get("retries");
                Map<?, ?> m = map(retries);
                Object on = m.get("retryOn") instanceof Located l ? l.value() : null;
                Object attempts = m.get("attempts") instanceof Located l ? l.value() : null;
                if (on instanceof String s && attempts instanceof Long n && n > 0 && retriesOnServerErrors(s)) {
                    out.add(retries(
                            r.name() == null ? "VirtualService" : r.name(),
                            "spec.http[" + i + "].retries",
                            n,
                            s,
                            source,
                            SourceLines.keyLine(lines, SourceLines.lineOf(retries), "retries")));
                }
            }
        }
        return out;
    }

    /** The same for the routes of a CiliumEnvoyConfig whose clusters have outlier detection. */
    static List<Finding> ciliumRetries(Manifests.Resource r, EnvoyConfig clusters, String source, List<String> lines) {
        List<Finding> out = new ArrayList<>();
        if (clusters.clusters().stream().noneMatch(c -> c.hasOutlierDetection())) {
            return out;
        }
        List<Located> resources = CiliumEnvoyConfigs.resources(r);
        for (int i = 0; i < resources.size(); i++) {
            collectRetryPolicies(resources.get(i), "spec.resources[" + i + "]", r, source, lines, out);
        }
        return out;
    }

    private static void collectRetryPolicies(
            Located node, String path, Manifests.Resource r, String source, List<String> lines, List<Finding> out) {
        if (node.value() instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Located child = (Located) e.getValue();
                if (("retry_policy".equals(e.getKey()) || "retryPolicy".equals(e.getKey()))
                        && child.value() instanceof Map<?, ?> p) {
                    Object on = first(p, "retry_on", "retryOn");
                    Object n = first(p, "num_retries", "numRetries");
                    long attempts = n instanceof Long l ? l : 1;
                    if (on instanceof String s && attempts > 0 && retriesOnServerErrors(s)) {
                        out.add(retries(
                                r.name() == null ? String.valueOf(r.kind()) : r.name(),
                                path + "." + e.getKey(),
                                attempts,
                                s,
                                source,
                                SourceLines.keyLine(lines, SourceLines.lineOf(child), String.valueOf(e.getKey()))));
                    }
                } else {
                    collectRetryPolicies(child, path + "." + e.getKey(), r, source, lines, out);
                }
            }
        } else if (node.value() instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectRetryPolicies((Located) list.get(i), path + "[" + i + "]", r, source, lines, out);
            }
        }
    }

    private static Finding retries(String owner, String path, long attempts, String on, String source, int line) {
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("retries", attempts);
        n.put("failures_per_failed_request", attempts + 1);
        return new Finding(
                Rule.RETRIES_FEED_CONSECUTIVE,
                Severity.NOTE,
                "",
                owner + " " + path + " retries " + attempts
                        + (attempts == 1 ? " time" : " times") + " on " + on
                        + ": every attempt is a response the outlier "
                        + "detector counts, so a request that fails everywhere adds " + (attempts + 1)
                        + " failures, spread "
                        + "over the hosts it tried. A failure all hosts share then reaches the consecutive thresholds "
                        + (attempts + 1) + " times sooner and ejects healthy hosts along with the bad one",
                n,
                null,
                source,
                line,
                List.of());
    }

    /** {@link Rule#KIND_NOT_READ} for a resource of a kind not read that has a key naming outlier detection. */
    static Optional<Finding> unreadOutlierSettings(Manifests.Resource r, String label, String source) {
        Located at = find(r.node(), 0);
        if (at == null) {
            return Optional.empty();
        }
        return Optional.of(Finding.aboutFile(
                Rule.KIND_NOT_READ,
                Severity.NOTE,
                label + " is not read: its outlier " + "settings (line " + SourceLines.lineOf(at) + ") are not checked",
                source,
                SourceLines.lineOf(at)));
    }

    private static Located find(Located node, int depth) {
        if (depth > 12) {
            return null;
        }
        if (node.value() instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (String.valueOf(e.getKey()).toLowerCase(Locale.ROOT).contains("outlier")) {
                    return (Located) e.getValue();
                }
                Located deeper = find((Located) e.getValue(), depth + 1);
                if (deeper != null) {
                    return deeper;
                }
            }
        } else if (node.value() instanceof List<?> list) {
            for (Object x : list) {
                Located deeper = find((Located) x, depth + 1);
                if (deeper != null) {
                    return deeper;
                }
            }
        }
        return null;
    }

    private static boolean retriesOnServerErrors(String on) {
        String s = on.toLowerCase(Locale.ROOT);
        return s.contains("5xx") || s.contains("gateway-error") || s.contains("retriable-status-codes");
    }

    private static Object first(Map<?, ?> m, String a, String b) {
        Object v = m.get(a) instanceof Located l ? l.value() : null;
        return v != null ? v : m.get(b) instanceof Located l ? l.value() : null;
    }

    private static boolean nonEmpty(Object node) {
        return node instanceof Located l && l.value() instanceof List<?> list && !list.isEmpty();
    }

    private static Map<?, ?> map(Located node) {
        return node != null && node.value() instanceof Map<?, ?> m ? m : Map.of();
    }
}
