package dev.outlierlab.check;

import dev.outlierlab.config.envoy.EnvoyConfig;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.FlaggerCanaries;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.kube.AdmiralOutlierDetections;
import dev.outlierlab.config.kube.CiliumEnvoyConfigs;
import dev.outlierlab.config.kube.EnvoyGatewayPolicies;
import dev.outlierlab.config.kube.KgatewayBackendConfigPolicies;
import dev.outlierlab.config.kube.KumaCircuitBreakers;
import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.kube.TranslatedPolicy;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Kubernetes manifests for {@code check}: every resource that configures outlier detection becomes targets,
 * translated as its controller translates it (DestinationRule: istiod, or kgateway when the file's Gateway is
 * kgateway's or {@code --controller} says; Canary: Flagger, then istiod; kgateway's BackendConfigPolicy: kgateway;
 * BackendTrafficPolicy and every {@code backendSettings} of an
 * EnvoyExtensionPolicy, SecurityPolicy or EnvoyProxy: Envoy Gateway; MeshCircuitBreaker: Kuma; Admiral's
 * OutlierDetection: Admiral, then istiod; the Envoy clusters of a CiliumEnvoyConfig: as they are). The host
 * count comes from what else the file holds ({@link ManifestHosts}). A kind that is not read is named as such,
 * never passed over as "no outlier detection".
 */
final class ManifestTargets {
    /** The kinds check translates. */
    static final Set<String> READ_KINDS = new LinkedHashSet<>(List.of(
            "DestinationRule",
            "Canary",
            "BackendTrafficPolicy",
            "EnvoyExtensionPolicy",
            "SecurityPolicy",
            "EnvoyProxy",
            "MeshCircuitBreaker",
            "CiliumEnvoyConfig",
            "CiliumClusterwideEnvoyConfig",
            "OutlierDetection",
            "BackendConfigPolicy"));
    /** Kinds that hold other resources. */
    static final Set<String> LISTS = Set.of("List");
    /** Kinds read only for what they say about other resources (hosts, retries, the controller). */
    private static final Set<String> CONTEXT = Set.of(
            "ServiceEntry",
            "EndpointSlice",
            "Deployment",
            "StatefulSet",
            "Service",
            "Gateway",
            "GatewayClass",
            "VirtualService",
            "Backend",
            "HTTPRoute");

    private ManifestTargets() {}

    /** @param forced the controller {@code --controller} names, or null to take it from the file */
    static CheckInputs.Loaded read(String text, String source, Integer port, DestinationRuleController forced) {
        List<String> lines = text.lines().toList();
        List<Manifests.Resource> resources = Manifests.read(text, source);
        ManifestHosts hosts = new ManifestHosts(resources);
        DestinationRuleController fromFile = DestinationRuleController.fromFile(resources);
        DestinationRuleController controller = forced != null ? forced : fromFile;
        String why = ManifestContext.controllerReason(forced, fromFile);
        List<CheckTarget> targets = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        List<String> withoutSettings = new ArrayList<>();
        List<Finding> file = new ArrayList<>();
        for (Manifests.Resource r : resources) {
            String kind = r.kind() == null ? "a document without kind" : r.kind();
            String label = kind + (r.name() == null ? "" : " " + r.name());
            int before = targets.size();
            switch (kind) {
                case "DestinationRule" -> {
                    // a VirtualService's retries replace istiod's default ones on its routes to the rule's host
                    List<IstioPolicy> p = DestinationRuleReader.withVirtualServiceRetries(
                            DestinationRuleReader.policies(r, source, lines, port, controller), resources);
                    targets.addAll(istio(
                            p,
                            controller == DestinationRuleController.KGATEWAY ? FixStyle.KGATEWAY : FixStyle.ISTIO,
                            hosts,
                            why));
                    ManifestContext.localityFailover(r, p, source, lines).ifPresent(file::add);
                }
                case "Canary" ->
                    targets.addAll(istio(FlaggerCanaries.read(r, source, lines, port), FixStyle.FLAGGER, hosts, null));
                case "BackendTrafficPolicy" ->
                    EnvoyGatewayPolicies.read(r, source, lines)
                            .forEach(x -> targets.add(
                                    withHosts(translated(x, FixStyle.ENVOY_GATEWAY), hosts.forPolicyTarget(r))));
                case "EnvoyExtensionPolicy", "SecurityPolicy", "EnvoyProxy" ->
                    EnvoyGatewayPolicies.readBackendSettings(r, source, lines)
                            .forEach(x -> targets.add(
                                    withHosts(translated(x, FixStyle.ENVOY_GATEWAY), backendRefsCount(r, x, hosts))));
                case "BackendConfigPolicy" ->
                    KgatewayBackendConfigPolicies.read(r, source, lines)
                            .forEach(x -> targets.add(kgatewayPolicy(x, r.namespace(), hosts)));
                case "MeshCircuitBreaker" ->
                    KumaCircuitBreakers.read(r, source, lines).forEach(x -> targets.add(translated(x, FixStyle.KUMA)));
                case "CiliumEnvoyConfig", "CiliumClusterwideEnvoyConfig" -> {
                    EnvoyConfig config = CiliumEnvoyConfigs.clusters(r, source, lines);
                    targets.addAll(CheckTargets.fromEnvoy(config));
                    config.notes()
                            .forEach(n -> file.add(Finding.aboutFile(
                                    Rule.NOT_MODELLED, Severity.NOTE, n, source, CheckInputs.lineOf(n))));
                    file.addAll(ManifestContext.ciliumRetries(r, config, source, lines));
                }
                case "OutlierDetection" ->
                    targets.addAll(istio(
                            AdmiralOutlierDetections.read(r, source, lines, port), FixStyle.ADMIRAL, hosts, null));
                default -> {
                    if (!CONTEXT.contains(kind)) {
                        unread.add(kind);
                        // a CRD's schema names outlier fields without configuring any
                        if (!"CustomResourceDefinition".equals(kind)) {
                            ManifestContext.unreadOutlierSettings(r, label, source)
                                    .ifPresent(file::add);
                        }
                    }
                }
            }
            if (READ_KINDS.contains(kind) && targets.size() == before) {
                withoutSettings.add(label);
            }
        }
        file.addAll(ManifestContext.virtualServiceRetries(resources, targets, source, lines));
        if (targets.isEmpty()) {
            List<String> said = new ArrayList<>();
            if (!withoutSettings.isEmpty()) {
                said.add(String.join(", ", withoutSettings)
                        + (withoutSettings.size() == 1 ? " configures" : " configure") + " no outlier detection");
            }
            Set<String> kinds = new LinkedHashSet<>(unread);
            if (!kinds.isEmpty()) {
                said.add(String.join(", ", kinds) + (kinds.size() == 1 ? " is" : " are") + " not read");
            }
            if (said.isEmpty()) {
                said.add(
                        "the file holds only "
                                + String.join(
                                        ", ",
                                        new LinkedHashSet<>(resources.stream()
                                                .map(r -> r.kind() == null ? "documents without kind" : r.kind())
                                                .toList()))
                                + ", which check reads only for what it says about other resources (hosts, retries, the controller)");
            }
            file.add(Finding.aboutFile(
                    Rule.NOTHING_TO_CHECK,
                    Severity.NOTE,
                    String.join("; ", said) + ": nothing to check here (" + CheckInputs.READS + ")",
                    source,
                    1));
        }
        return new CheckInputs.Loaded(targets, file);
    }

    /** @param why for a DestinationRule, which controller translates it and why; null for the others */
    private static List<CheckTarget> istio(
            List<IstioPolicy> policies, FixStyle style, ManifestHosts hosts, String why) {
        List<CheckTarget> out = new ArrayList<>();
        for (IstioPolicy p : policies) {
            ManifestHosts.Count count = hosts.forHost(p.host(), p.namespace());
            List<String> notes = new ArrayList<>(p.notes());
            if (count != null) {
                notes.add(count.describe());
            }
            if (why != null) {
                notes.add(why);
            }
            out.add(CheckTarget.builder()
                    .name(p.displayName())
                    .style(style)
                    .file(p.source())
                    .line(p.line())
                    .hasOutlierDetection(p.hasOutlierDetection())
                    .config(p.outlierDetection())
                    .panicThresholdPercent(p.panicThresholdPercent())
                    .hosts(count == null ? null : count.hosts())
                    .warnings(p.warnings())
                    .translation(p.fields())
                    .notes(notes)
                    .hostsAtLeast(count != null && count.atLeast())
                    .routing(style == FixStyle.ISTIO ? p.routing() : RoutingSpec.NONE)
                    .build());
        }
        return out;
    }

    /** A kgateway BackendConfigPolicy's settings for one target, with the target's host count when the file says it. */
    private static CheckTarget kgatewayPolicy(
            KgatewayBackendConfigPolicies.Targeted x, String namespace, ManifestHosts hosts) {
        TranslatedPolicy p = x.policy();
        ManifestHosts.Count count = x.targetName() == null
                ? null
                : switch (x.targetKind()) {
                    case "Service", "Hostname" -> hosts.forHost(x.targetName(), namespace);
                    case "Backend" -> hosts.forBackend(x.targetName(), namespace);
                    default -> null;
                };
        return CheckTarget.builder()
                .name(p.name())
                .style(FixStyle.KGATEWAY_POLICY)
                .file(p.source())
                .line(p.line())
                .hasOutlierDetection(true)
                .config(p.outlierDetection())
                .panicThresholdPercent(p.panicThresholdPercent())
                .healthChecks(p.healthChecks())
                .hosts(count == null ? null : count.hosts())
                .warnings(p.warnings())
                .translation(p.fields())
                .notes(count == null ? List.of() : List.of(count.describe()))
                .hostsAtLeast(count != null && count.atLeast())
                .build();
    }

    /**
     * The hosts of a {@code backendSettings} cluster: the {@code backendRefs} beside it (a SecurityPolicy's remote
     * JWKS, an ext-proc's service, a telemetry backend), counted from the file's Backends and Services.
     */
    private static ManifestHosts.Count backendRefsCount(Manifests.Resource r, TranslatedPolicy p, ManifestHosts hosts) {
        String owner = p.scope().replaceFirst("\\.backendSettings\\.healthCheck\\.passive$", "");
        Located at = ManifestHosts.at(r.node(), owner);
        Located refs =
                at != null && at.value() instanceof Map<?, ?> m && m.get("backendRefs") instanceof Located l ? l : null;
        return hosts.forBackendRefs(
                refs,
                r.namespace(),
                (r.name() == null ? String.valueOf(r.kind()) : r.name()) + " " + owner.replaceFirst("^spec\\.", ""));
    }

    private static CheckTarget withHosts(CheckTarget t, ManifestHosts.Count count) {
        if (count == null) {
            return t;
        }
        List<String> notes = new ArrayList<>(t.notes());
        notes.add(count.describe());
        return t.toBuilder()
                .hosts(count.hosts())
                .notes(notes)
                .hostsAtLeast(count.atLeast())
                .build();
    }

    private static CheckTarget translated(TranslatedPolicy p, FixStyle style) {
        return CheckTarget.builder()
                .name(p.name())
                .style(style)
                .file(p.source())
                .line(p.line())
                .hasOutlierDetection(p.outlierDetection() != null)
                .config(p.outlierDetection())
                .panicThresholdPercent(p.panicThresholdPercent())
                .healthChecks(p.healthChecks())
                .warnings(p.warnings())
                .translation(p.fields())
                .build();
    }
}
