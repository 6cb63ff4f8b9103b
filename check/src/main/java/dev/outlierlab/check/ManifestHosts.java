package dev.outlierlab.check;

import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a manifest file says about how many hosts a service has: a ServiceEntry with {@code resolution: STATIC}
 * (its endpoints), the EndpointSlices of a Service ({@code kubernetes.io/service-name}; ready endpoints, one host
 * each, as Envoy gets them from istiod's EDS), else the replicas of the Deployment or StatefulSet a Service
 * selects. A DestinationRule's {@code host} is matched as {@code name}, {@code name.namespace} or
 * {@code name.namespace.svc.cluster.local}.
 */
final class ManifestHosts {
    /** A host count and where it came from, for the report. */
    record Count(int hosts, String from) {
    }

    private final Map<String, Count> byHost = new HashMap<>();

    ManifestHosts(List<Manifests.Resource> resources) {
        Map<String, Integer> slices = new HashMap<>();
        Map<String, Map<?, ?>> selectors = new HashMap<>();
        Map<String, Integer> replicas = new HashMap<>();
        Map<String, Map<?, ?>> podLabels = new HashMap<>();
        for (Manifests.Resource r : resources) {
            String ns = r.namespace() == null ? "default" : r.namespace();
            switch (String.valueOf(r.kind())) {
                case "ServiceEntry" -> serviceEntry(r);
                case "EndpointSlice" -> {
                    Object service = labels(r.get("metadata")).get("kubernetes.io/service-name");
                    if (service instanceof Located l && l.value() instanceof String name) {
                        slices.merge(name + "." + ns, readyEndpoints(r), Integer::sum);
                    }
                }
                case "Service" -> {
                    Map<?, ?> spec = map(r.get("spec"));
                    if (r.name() != null && spec.get("selector") instanceof Located sel && sel.value() instanceof Map<?, ?> m) {
                        selectors.put(r.name() + "." + ns, m);
                    }
                }
                case "Deployment", "StatefulSet" -> {
                    Map<?, ?> spec = map(r.get("spec"));
                    long n = spec.get("replicas") instanceof Located l && l.value() instanceof Long v ? v : 1;
                    Map<?, ?> template = spec.get("template") instanceof Located t ? map(t) : Map.of();
                    if (r.name() != null) {
                        replicas.put(r.kind() + " " + r.name() + "." + ns, (int) Math.min(n, Integer.MAX_VALUE));
                        podLabels.put(r.kind() + " " + r.name() + "." + ns, labels((Located) template.get("metadata")));
                    }
                }
                default -> {
                }
            }
        }
        slices.forEach((service, n) -> put(service, new Count(n, "from the EndpointSlices of Service " + service
                + " in the same file (ready endpoints)")));
        selectors.forEach((service, selector) -> {
            if (slices.containsKey(service)) {
                return;
            }
            replicas.forEach((workload, n) -> {
                String wns = workload.substring(workload.lastIndexOf('.') + 1);
                if (service.endsWith("." + wns) && matches(selector, podLabels.get(workload))) {
                    put(service, new Count(n, "from the replicas of " + workload.substring(0, workload.lastIndexOf('.'))
                            + ", which Service " + service + " selects, in the same file"));
                }
            });
        });
    }

    /** The count for a DestinationRule's host in a namespace, or null when the file does not say. */
    Count forHost(String host, String namespace) {
        if (host == null) {
            return null;
        }
        Count exact = byHost.get(host);
        if (exact != null) {
            return exact;
        }
        String ns = namespace == null ? "default" : namespace;
        String[] parts = host.split("\\.");
        String key = parts.length == 1 ? host + "." + ns
                : parts.length >= 2 && (parts.length == 2 || host.endsWith(".svc.cluster.local")) ? parts[0] + "." + parts[1]
                : null;
        return key == null ? null : byHost.get(key);
    }

    private void put(String service, Count c) {
        byHost.put(service, c);
    }

    private void serviceEntry(Manifests.Resource r) {
        Map<?, ?> m = map(r.get("spec"));
        Object resolution = m.get("resolution") instanceof Located l ? l.value() : null;
        if (!"STATIC".equals(resolution) || !(m.get("endpoints") instanceof Located eps)
                || !(eps.value() instanceof List<?> endpoints) || endpoints.isEmpty()
                || !(m.get("hosts") instanceof Located hosts) || !(hosts.value() instanceof List<?> names)) {
            return;
        }
        for (Object h : names) {
            if (((Located) h).value() instanceof String host) {
                byHost.put(host, new Count(endpoints.size(), "from the ServiceEntry for " + host
                        + " in the same file (its endpoints, resolution STATIC)"));
            }
        }
    }

    private static int readyEndpoints(Manifests.Resource r) {
        int n = 0;
        if (r.get("endpoints") != null && r.get("endpoints").value() instanceof List<?> eps) {
            for (Object e : eps) {
                Map<?, ?> ep = map((Located) e);
                Map<?, ?> conditions = ep.get("conditions") instanceof Located c ? map(c) : Map.of();
                boolean ready = !(conditions.get("ready") instanceof Located rd && Boolean.FALSE.equals(rd.value()));
                n += ready ? 1 : 0;
            }
        }
        return n;
    }

    private static boolean matches(Map<?, ?> selector, Map<?, ?> labels) {
        if (selector.isEmpty() || labels == null) {
            return false;
        }
        for (Map.Entry<?, ?> e : selector.entrySet()) {
            Object want = ((Located) e.getValue()).value();
            Object have = labels.get(e.getKey()) instanceof Located l ? l.value() : null;
            if (want == null || !want.equals(have)) {
                return false;
            }
        }
        return true;
    }

    private static Map<?, ?> labels(Located metadata) {
        Map<?, ?> m = map(metadata);
        return m.get("labels") instanceof Located l ? map(l) : Map.of();
    }

    private static Map<?, ?> map(Located node) {
        return node != null && node.value() instanceof Map<?, ?> m ? m : Map.of();
    }
}
