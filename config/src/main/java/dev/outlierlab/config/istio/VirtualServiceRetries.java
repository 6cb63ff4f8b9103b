package dev.outlierlab.config.istio;

import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.sim.scenario.RetrySpec;
import java.util.List;
import java.util.Map;

/**
 * A VirtualService's {@code retries} for the routes to a DestinationRule's host: the first HTTP route (in file order)
 * with a destination on that host gives its {@code retries}, converted as istiod's {@code ConvertPolicy} does
 * ({@link IstioRouting#convert}); a route without {@code retries} keeps istiod's default. The route's {@code timeout}
 * bounds its tries in all ({@link IstioRouting#routeTimeout}; none unless set). Hosts match by their first DNS label
 * ({@code reviews} and {@code reviews.default.svc.cluster.local} are the same service).
 */
final class VirtualServiceRetries {
    private VirtualServiceRetries() {}

    static IstioPolicy apply(IstioPolicy policy, List<Manifests.Resource> virtualServices) {
        if (policy.host() == null) {
            return policy;
        }
        String service = label(policy.host());
        for (Manifests.Resource vs : virtualServices) {
            Map<String, Located> spec = map(vs.get("spec"));
            List<?> http = spec == null ? null : list(spec.get("http"));
            if (http == null) {
                continue;
            }
            for (int i = 0; i < http.size(); i++) {
                Map<String, Located> route = map((Located) http.get(i));
                if (route == null || !routesTo(route, service)) {
                    continue;
                }
                String at = "VirtualService " + vs.name() + " spec.http[" + i + "]";
                long timeout = IstioRouting.routeTimeout(route.get("timeout"), at + ".timeout");
                Map<String, Located> retries = map(route.get("retries"));
                if (retries == null && timeout == 0) {
                    return policy;
                }
                RetrySpec retry =
                        retries == null ? policy.routing().retries() : IstioRouting.convert(retries, at + ".retries");
                return policy.withRetries(retry == null ? null : retry.withRouteTimeout(timeout));
            }
        }
        return policy;
    }

    private static boolean routesTo(Map<String, Located> route, String service) {
        List<?> destinations = list(route.get("route"));
        if (destinations == null) {
            return false;
        }
        for (Object d : destinations) {
            Map<String, Located> weighted = map((Located) d);
            Map<String, Located> destination = weighted == null ? null : map(weighted.get("destination"));
            Located host = destination == null ? null : destination.get("host");
            if (host != null && host.value() instanceof String h && label(h).equals(service)) {
                return true;
            }
        }
        return false;
    }

    private static String label(String host) {
        int dot = host.indexOf('.');
        return dot < 0 ? host : host.substring(0, dot);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> map(Located node) {
        return node != null && node.value() instanceof Map<?, ?> m ? (Map<String, Located>) m : null;
    }

    private static List<?> list(Located node) {
        return node != null && node.value() instanceof List<?> l ? l : null;
    }
}
