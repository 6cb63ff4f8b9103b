package dev.outlierlab.check;

import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.FlaggerCanaries;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.kube.EnvoyGatewayPolicies;
import dev.outlierlab.config.kube.KumaCircuitBreakers;
import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.kube.TranslatedPolicy;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Kubernetes manifests for {@code check}: every resource that configures outlier detection becomes targets,
 * translated as its controller translates it (DestinationRule: istiod; Canary: Flagger, then istiod;
 * BackendTrafficPolicy: Envoy Gateway; MeshCircuitBreaker: Kuma). A ServiceEntry with
 * {@code resolution: STATIC} in the same file gives the host count of the DestinationRules for its hosts.
 * Other documents are skipped; a file with nothing to check is a note.
 */
final class ManifestTargets {
    private ManifestTargets() {
    }

    static CheckInputs.Loaded read(String text, String source, Integer port) {
        List<String> lines = text.lines().toList();
        List<Manifests.Resource> resources = Manifests.read(text, source);
        Map<String, Integer> serviceEntryHosts = serviceEntryHosts(resources);
        List<CheckTarget> targets = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Manifests.Resource r : resources) {
            String kind = r.kind() == null ? "a document without kind" : r.kind();
            switch (kind) {
                case "DestinationRule" -> targets.addAll(istio(DestinationRuleReader.policies(r, source, lines, port),
                        FixStyle.ISTIO, serviceEntryHosts));
                case "Canary" -> {
                    List<IstioPolicy> p = FlaggerCanaries.read(r, source, lines, port);
                    if (p.isEmpty()) {
                        skipped.add("Canary " + r.name() + " (not for Istio)");
                    }
                    targets.addAll(istio(p, FixStyle.FLAGGER, serviceEntryHosts));
                }
                case "BackendTrafficPolicy" -> {
                    List<TranslatedPolicy> p = EnvoyGatewayPolicies.read(r, source, lines);
                    if (p.isEmpty()) {
                        skipped.add("BackendTrafficPolicy " + r.name() + " (no healthCheck.passive)");
                    }
                    p.forEach(x -> targets.add(translated(x, FixStyle.ENVOY_GATEWAY)));
                }
                case "MeshCircuitBreaker" -> {
                    List<TranslatedPolicy> p = KumaCircuitBreakers.read(r, source, lines);
                    if (p.isEmpty()) {
                        skipped.add("MeshCircuitBreaker " + r.name() + " (no outlierDetection)");
                    }
                    p.forEach(x -> targets.add(translated(x, FixStyle.KUMA)));
                }
                default -> skipped.add(kind);
            }
        }
        List<Finding> file = new ArrayList<>();
        if (targets.isEmpty()) {
            file.add(Finding.aboutFile(Rule.NOTHING_TO_CHECK, Severity.NOTE, "no resource here configures outlier "
                    + "detection" + (skipped.isEmpty() ? "" : " (found " + String.join(", ", skipped) + ")")
                    + ": nothing to check", source, 1));
        }
        return new CheckInputs.Loaded(targets, file);
    }

    private static List<CheckTarget> istio(List<IstioPolicy> policies, FixStyle style, Map<String, Integer> seHosts) {
        List<CheckTarget> out = new ArrayList<>();
        for (IstioPolicy p : policies) {
            Integer hosts = p.host() == null ? null : seHosts.get(p.host());
            List<String> notes = new ArrayList<>(p.notes());
            if (hosts != null) {
                notes.add(hosts + " hosts from the ServiceEntry for " + p.host() + " in the same file (its endpoints, "
                        + "resolution STATIC)");
            }
            out.add(new CheckTarget(p.displayName(), style, p.source(), p.line(), p.hasOutlierDetection(),
                    p.outlierDetection(), p.panicThresholdPercent(), null, hosts, List.of(), p.warnings(), p.fields(),
                    notes));
        }
        return out;
    }

    private static CheckTarget translated(TranslatedPolicy p, FixStyle style) {
        return new CheckTarget(p.name(), style, p.source(), p.line(), p.outlierDetection() != null, p.outlierDetection(),
                p.panicThresholdPercent(), p.healthChecks(), null, List.of(), p.warnings(), p.fields(), List.of());
    }

    /** Host -> number of endpoints, for ServiceEntries with resolution STATIC (their endpoints are the hosts). */
    private static Map<String, Integer> serviceEntryHosts(List<Manifests.Resource> resources) {
        Map<String, Integer> out = new HashMap<>();
        for (Manifests.Resource r : resources) {
            if (!"ServiceEntry".equals(r.kind())) {
                continue;
            }
            Located spec = r.get("spec");
            if (spec == null || !(spec.value() instanceof Map<?, ?> m)) {
                continue;
            }
            Object resolution = m.get("resolution") instanceof Located l ? l.value() : null;
            if (!"STATIC".equals(resolution) || !(m.get("endpoints") instanceof Located eps)
                    || !(eps.value() instanceof List<?> endpoints) || endpoints.isEmpty()
                    || !(m.get("hosts") instanceof Located hosts) || !(hosts.value() instanceof List<?> names)) {
                continue;
            }
            for (Object h : names) {
                if (((Located) h).value() instanceof String host) {
                    out.put(host, endpoints.size());
                }
            }
        }
        return out;
    }
}
