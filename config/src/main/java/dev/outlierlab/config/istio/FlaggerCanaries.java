package dev.outlierlab.config.istio;

import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Flagger {@code Canary} (flagger.app/v1beta1) on Istio: Flagger writes two DestinationRules,
 * {@code <service>-canary} and {@code <service>-primary}, each with {@code host} its own name and
 * {@code trafficPolicy} copied from the Canary's {@code spec.service.trafficPolicy}; istiod then translates
 * them as any DestinationRule. Followed from fluxcd/flagger at commit 15bd6ad5, {@code pkg/router/istio.go}
 * ({@code Reconcile} and {@code reconcileDestinationRule}) and {@code pkg/apis/flagger/v1beta1/canary.go}
 * ({@code GetServiceNames}: the service is {@code spec.service.name}, else {@code spec.targetRef.name}).
 * A Canary whose {@code spec.provider} names another mesh gets no DestinationRule from Flagger; without a
 * provider, Flagger's default mesh provider, istio, is assumed.
 */
public final class FlaggerCanaries {
    private FlaggerCanaries() {}

    /**
     * The policies of the two DestinationRules Flagger generates; empty when the Canary is for another provider.
     *
     * @param lines the file's lines
     */
    public static List<IstioPolicy> read(Manifests.Resource r, String source, List<String> lines, Integer port) {
        Located spec = r.get("spec");
        Located service = child(spec, "service");
        String provider = text(child(spec, "provider"));
        if (provider != null && !provider.equals("istio")) {
            return List.of();
        }
        String apex = text(child(service, "name"));
        if (apex == null) {
            apex = text(child(child(spec, "targetRef"), "name"));
        }
        if (apex == null) {
            apex = r.name();
        }
        Located policy = child(service, "trafficPolicy");
        List<IstioPolicy> out = new ArrayList<>();
        for (String suffix : List.of("-primary", "-canary")) {
            String name = apex + suffix;
            out.addAll(DestinationRuleReader.fromTrafficPolicy(
                    name,
                    r.namespace(),
                    name,
                    policy,
                    "spec.service.trafficPolicy",
                    service == null ? r.node() : service,
                    source,
                    lines,
                    port));
        }
        return out;
    }

    private static Located child(Located node, String key) {
        return node != null && node.value() instanceof Map<?, ?> m && m.get(key) instanceof Located l ? l : null;
    }

    private static String text(Located node) {
        return node != null && node.value() instanceof String s ? s : null;
    }
}
