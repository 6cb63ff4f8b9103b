package dev.outlierlab.check;

import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a manifest file says about how many hosts a service has: a ServiceEntry with {@code resolution: STATIC}
 * (its endpoints; {@code DNS}: at least its endpoints or hosts, a lower bound), Envoy Gateway's and kgateway's
 * Backends (their endpoints; DNS names make it a lower bound), the EndpointSlices of a Service ({@code kubernetes.io/service-name}; ready endpoints, one host
 * each, as Envoy gets them from istiod's EDS), else the replicas of the Deployment or StatefulSet a Service
 * selects. A DestinationRule's {@code host} is matched as {@code name}, {@code name.namespace} or
 * {@code name.namespace.svc.cluster.local}.
 */
final class ManifestHosts {
    /**
     * A host count and where it came from, for the report.
     *
     * @param atLeast whether the count is a lower bound: DNS names, each of which resolves to one or more addresses
     */
    record Count(int hosts, String from, boolean atLeast) {
        Count(int hosts, String from) {
            this(hosts, from, false);
        }

        /** "6 hosts from ...", or "at least 2 hosts from ..." for a lower bound. */
        String describe() {
            return (atLeast ? "at least " : "") + hosts + (hosts == 1 ? " host " : " hosts ") + from;
        }

        /** The sum of counts, a lower bound when any of them is. */
        static Count sum(List<Count> counts, String from) {
            int n = 0;
            boolean atLeast = false;
            for (Count c : counts) {
                n = (int) Math.min(Integer.MAX_VALUE, (long) n + c.hosts());
                atLeast |= c.atLeast();
            }
            return new Count(n, from, atLeast);
        }
    }

    private final Map<String, Count> byHost = new HashMap<>();
    /** Envoy Gateway's and kgateway's Backends, by {@code name.namespace}. */
    private final Map<String, Count> byBackend = new HashMap<>();
    /** Gateway API routes, by {@code kind name.namespace}. */
    private final Map<String, Manifests.Resource> routes = new HashMap<>();

    ManifestHosts(List<Manifests.Resource> resources) {
        Map<String, Integer> slices = new HashMap<>();
        Map<String, Map<?, ?>> selectors = new HashMap<>();
        Map<String, Integer> replicas = new HashMap<>();
        Map<String, Map<?, ?>> podLabels = new HashMap<>();
        for (Manifests.Resource r : resources) {
            String ns = r.namespace() == null ? "default" : r.namespace();
            switch (String.valueOf(r.kind())) {
                case "ServiceEntry" -> serviceEntry(r);
                case "Backend" -> backend(r, ns);
                case "HTTPRoute", "GRPCRoute", "TCPRoute", "TLSRoute", "UDPRoute" -> {
                    if (r.name() != null) {
                        routes.put(r.kind() + " " + r.name() + "." + ns, r);
                    }
                }
                case "EndpointSlice" -> {
                    Object service = labels(r.get("metadata")).get("kubernetes.io/service-name");
                    if (service instanceof Located l && l.value() instanceof String name) {
                        slices.merge(name + "." + ns, readyEndpoints(r), Integer::sum);
                    }
                }
                case "Service" -> {
                    Map<?, ?> spec = map(r.get("spec"));
                    if (r.name() != null
                            && spec.get("selector") instanceof Located sel
                            && sel.value() instanceof Map<?, ?> m) {
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
                default -> {}
            }
        }
        slices.forEach((service, n) -> put(
                service,
                new Count(n, "from the EndpointSlices of Service " + service + " in the same file (ready endpoints)")));
        selectors.forEach((service, selector) -> {
            if (slices.containsKey(service)) {
                return;
            }
            replicas.forEach((workload, n) -> {
                String wns = workload.substring(workload.lastIndexOf('.') + 1);
                if (service.endsWith("." + wns) && matches(selector, podLabels.get(workload))) {
                    put(
                            service,
                            new Count(
                                    n,
                                    "from the replicas of " + workload.substring(0, workload.lastIndexOf('.'))
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
        String key = parts.length == 1
                ? host + "." + ns
                : parts.length >= 2 && (parts.length == 2 || host.endsWith(".svc.cluster.local"))
                        ? parts[0] + "." + parts[1]
                        : null;
        return key == null ? null : byHost.get(key);
    }

    /** The count of an Envoy Gateway or kgateway {@code Backend} in a namespace, or null when the file does not say. */
    Count forBackend(String name, String namespace) {
        return name == null ? null : byBackend.get(name + "." + (namespace == null ? "default" : namespace));
    }

    /**
     * The hosts of one cluster made of {@code backendRefs} (Services and Backends; Envoy Gateway puts the endpoints of
     * all of a rule's or a backend's refs in one cluster): the sum, or null when the file does not say for one of them.
     */
    Count forBackendRefs(Located refs, String namespace, String owner) {
        if (refs == null || !(refs.value() instanceof List<?> list) || list.isEmpty()) {
            return null;
        }
        List<Count> counts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Object o : list) {
            Map<?, ?> ref = map((Located) o);
            String name = text(ref, "name");
            String ns = text(ref, "namespace");
            String kind = text(ref, "kind");
            Count c = "Backend".equals(kind)
                    ? forBackend(name, ns != null ? ns : namespace)
                    : kind == null || "Service".equals(kind) ? forHost(name, ns != null ? ns : namespace) : null;
            if (c == null) {
                return null;
            }
            counts.add(c);
            names.add((kind == null ? "Service" : kind) + " " + name);
        }
        return Count.sum(
                counts, "from the backendRefs of " + owner + " (" + String.join(", ", names) + ") in the same file");
    }

    /** The node at a path such as {@code spec.jwt.providers[0].remoteJWKS} under a resource, or null. */
    static Located at(Located root, String path) {
        Located node = root;
        for (String part : path.split("\\.")) {
            String key = part.contains("[") ? part.substring(0, part.indexOf('[')) : part;
            node = map(node).get(key) instanceof Located l ? l : null;
            if (node == null) {
                return null;
            }
            if (part.contains("[")) {
                int i = Integer.parseInt(part.substring(part.indexOf('[') + 1, part.indexOf(']')));
                node = node.value() instanceof List<?> list && i < list.size() ? (Located) list.get(i) : null;
                if (node == null) {
                    return null;
                }
            }
        }
        return node;
    }

    /**
     * The hosts of the clusters a policy targeting one route configures (Envoy Gateway's BackendTrafficPolicy with a
     * {@code targetRef} or one {@code targetRefs} entry naming an HTTPRoute or GRPCRoute): each rule of the route is a
     * cluster of its backendRefs' endpoints, and the count is given when every rule has the same; null otherwise.
     */
    Count forPolicyTarget(Manifests.Resource policy) {
        Map<?, ?> spec = map(policy.get("spec"));
        Located one = spec.get("targetRef") instanceof Located l ? l : null;
        if (one == null
                && spec.get("targetRefs") instanceof Located refs
                && refs.value() instanceof List<?> list
                && list.size() == 1) {
            one = (Located) list.get(0);
        }
        Map<?, ?> ref = map(one);
        String kind = text(ref, "kind");
        String ns = policy.namespace() == null ? "default" : policy.namespace();
        Manifests.Resource route = kind == null ? null : routes.get(kind + " " + text(ref, "name") + "." + ns);
        if (route == null
                || !(map(route.get("spec")).get("rules") instanceof Located rl)
                || !(rl.value() instanceof List<?> rules)
                || rules.isEmpty()) {
            return null;
        }
        Count first = null;
        for (int i = 0; i < rules.size(); i++) {
            Count c = forBackendRefs(
                    map((Located) rules.get(i)).get("backendRefs") instanceof Located b ? b : null,
                    route.namespace(),
                    kind + " " + route.name() + " rule " + i);
            if (c == null || first != null && (c.hosts() != first.hosts() || c.atLeast() != first.atLeast())) {
                return null;
            }
            first = first == null ? c : first;
        }
        return rules.size() == 1
                ? first
                : new Count(
                        first.hosts(),
                        "from the backendRefs of each of the " + rules.size() + " rules of " + kind + " " + route.name()
                                + " in the same file",
                        first.atLeast());
    }

    private static String text(Map<?, ?> m, String key) {
        // Envoy Gateway's own inputs also spell the keys of a BackendRef with capitals (Name, Namespace)
        Object v = m.get(key) instanceof Located l
                ? l.value()
                : m.get(Character.toUpperCase(key.charAt(0)) + key.substring(1)) instanceof Located l
                        ? l.value()
                        : null;
        return v instanceof String s ? s : null;
    }

    /**
     * An Envoy Gateway Backend (gateway.envoyproxy.io: {@code spec.endpoints}, each an {@code ip}, a {@code unix} socket
     * or an {@code fqdn} name that resolves to one or more addresses) or a kgateway Backend (gateway.kgateway.dev:
     * {@code spec.static.hosts}, names or addresses, which kgateway makes a DNS cluster of).
     */
    private void backend(Manifests.Resource r, String ns) {
        String api = r.apiVersion() == null ? "" : r.apiVersion();
        Map<?, ?> spec = map(r.get("spec"));
        if (r.name() == null) {
            return;
        }
        if (api.startsWith("gateway.envoyproxy.io")
                && spec.get("endpoints") instanceof Located eps
                && eps.value() instanceof List<?> endpoints
                && !endpoints.isEmpty()) {
            int names = 0;
            for (Object e : endpoints) {
                names += map((Located) e).get("fqdn") != null ? 1 : 0;
            }
            byBackend.put(
                    r.name() + "." + ns,
                    new Count(
                            endpoints.size(),
                            "from the endpoints of Backend " + r.name()
                                    + " in the same file"
                                    + (names == 0
                                            ? ""
                                            : " (" + names + " of them DNS names, each one or more " + "addresses)"),
                            names > 0));
        } else if (api.startsWith("gateway.kgateway.dev")
                && spec.get("static") instanceof Located st
                && map(st).get("hosts") instanceof Located hs
                && hs.value() instanceof List<?> hosts
                && !hosts.isEmpty()) {
            int names = 0;
            for (Object h : hosts) {
                String host = text(map((Located) h), "host");
                names += host == null || !CheckTargets.isAddressLiteral(host) ? 1 : 0;
            }
            byBackend.put(
                    r.name() + "." + ns,
                    new Count(
                            hosts.size(),
                            "from the static hosts of Backend " + r.name()
                                    + " in the same file"
                                    + (names == 0
                                            ? ""
                                            : " (" + names + " of them DNS names, each one or more " + "addresses)"),
                            names > 0));
        }
    }

    private void put(String service, Count c) {
        byHost.put(service, c);
    }

    /**
     * A ServiceEntry's hosts: with {@code resolution: STATIC} its endpoints; with {@code resolution: DNS} at least its
     * endpoints (each a name that resolves to one or more addresses), or at least one per host without endpoints.
     */
    private void serviceEntry(Manifests.Resource r) {
        Map<?, ?> m = map(r.get("spec"));
        Object resolution = m.get("resolution") instanceof Located l ? l.value() : null;
        if (!(m.get("hosts") instanceof Located hosts) || !(hosts.value() instanceof List<?> names)) {
            return;
        }
        List<?> endpoints =
                m.get("endpoints") instanceof Located eps && eps.value() instanceof List<?> list ? list : List.of();
        for (Object h : names) {
            if (!(((Located) h).value() instanceof String host)) {
                continue;
            }
            if ("STATIC".equals(resolution) && !endpoints.isEmpty()) {
                byHost.put(
                        host,
                        new Count(
                                endpoints.size(),
                                "from the ServiceEntry for " + host
                                        + " in the same file (its endpoints, resolution STATIC)"));
            } else if ("DNS".equals(resolution)) {
                byHost.put(
                        host,
                        endpoints.isEmpty()
                                ? new Count(
                                        1,
                                        "from the ServiceEntry for " + host + " in the same file (resolution DNS: the "
                                                + "name resolves to one or more addresses)",
                                        true)
                                : new Count(
                                        endpoints.size(),
                                        "from the ServiceEntry for " + host + " in the same file (its "
                                                + "endpoints, resolution DNS: each one or more addresses)",
                                        true));
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
