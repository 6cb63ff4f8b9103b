package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.OutlierKeyTypos;
import dev.outlierlab.config.envoy.SourceLines;
import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Istio {@code DestinationRule}s (networking.istio.io v1, v1beta1, v1alpha3) from a YAML file that may
 * hold several documents, or a Kubernetes {@code List}; documents of other kinds are skipped. Each rule gives
 * one {@link IstioPolicy} per Envoy cluster it configures, with Istio's precedence (pilot's
 * {@code GetPortLevelTrafficPolicy} and {@code MergeSubsetTrafficPolicy}): port-level settings replace the
 * rule's traffic policy for their port without inheriting from it, and a subset's {@code outlierDetection}
 * replaces the rule's.
 */
public final class DestinationRuleReader {
    private static final Set<String> VERSIONS =
            Set.of("networking.istio.io/v1", "networking.istio.io/v1beta1", "networking.istio.io/v1alpha3");

    private DestinationRuleReader() {}

    /**
     * Reads every DestinationRule in the text.
     *
     * @param port with a port, the settings each cluster for that port gets; without, one policy for the
     *             rule's ports in general and one per {@code portLevelSettings} entry
     */
    public static IstioConfig read(String text, String source, Integer port) {
        return read(text, source, port, null);
    }

    /**
     * Reads every DestinationRule in the text as {@code controller} translates it; null: as the file says
     * ({@link DestinationRuleController#fromFile}: kgateway when its Gateway is kgateway's, else istiod).
     */
    public static IstioConfig read(String text, String source, Integer port, DestinationRuleController controller) {
        return read(text, source, port, controller, IstioOverrides.NONE);
    }

    /** As {@link #read(String, String, Integer, DestinationRuleController)}, Istio fields set over every policy's own. */
    public static IstioConfig read(
            String text, String source, Integer port, DestinationRuleController controller, IstioOverrides overrides) {
        if (text.isBlank()
                || text.lines()
                        .allMatch(l -> l.isBlank()
                                || l.strip().startsWith("#")
                                || l.strip().equals("---"))) {
            throw new InputException(source + ": the file is empty; expected an Istio DestinationRule");
        }
        List<String> lines = text.lines().toList();
        List<IstioPolicy> policies = new ArrayList<>();
        List<String> otherKinds = new ArrayList<>();
        List<Manifests.Resource> resources = Manifests.read(text, source);
        DestinationRuleController chosen =
                controller != null ? controller : DestinationRuleController.fromFile(resources);
        List<Manifests.Resource> virtualServices = new ArrayList<>();
        for (Manifests.Resource r : resources) {
            if ("VirtualService".equals(r.kind())) {
                virtualServices.add(r);
            }
            if (!"DestinationRule".equals(r.kind())) {
                otherKinds.add(r.kind() == null ? "a document without kind" : r.kind());
                continue;
            }
            policies.addAll(policies(r, source, lines, port, chosen, overrides));
        }
        if (!virtualServices.isEmpty()) {
            policies.replaceAll(p -> VirtualServiceRetries.apply(p, virtualServices));
        }
        return new IstioConfig(source, policies, otherKinds, chosen);
    }

    /**
     * {@code policies} with the retries the VirtualServices among {@code resources} give their routes (as {@link
     * #read} applies them to a file's DestinationRules): the first HTTP route to a policy's host sets its retries and
     * route timeout.
     */
    public static List<IstioPolicy> withVirtualServiceRetries(
            List<IstioPolicy> policies, List<Manifests.Resource> resources) {
        List<Manifests.Resource> virtualServices = resources.stream()
                .filter(r -> "VirtualService".equals(r.kind()))
                .toList();
        if (virtualServices.isEmpty()) {
            return policies;
        }
        return policies.stream()
                .map(p -> VirtualServiceRetries.apply(p, virtualServices))
                .toList();
    }

    /**
     * The policies of one DestinationRule resource.
     *
     * @param lines the file's lines, for the lines of keys
     */
    public static List<IstioPolicy> policies(
            Manifests.Resource resource, String source, List<String> lines, Integer port) {
        return policies(resource, source, lines, port, DestinationRuleController.ISTIOD);
    }

    /** The policies of a DestinationRule as {@code controller} translates them. */
    public static List<IstioPolicy> policies(
            Manifests.Resource resource,
            String source,
            List<String> lines,
            Integer port,
            DestinationRuleController controller) {
        return policies(resource, source, lines, port, controller, IstioOverrides.NONE);
    }

    private static List<IstioPolicy> policies(
            Manifests.Resource resource,
            String source,
            List<String> lines,
            Integer port,
            DestinationRuleController controller,
            IstioOverrides overrides) {
        String api = resource.apiVersion();
        if (api == null || !VERSIONS.contains(api)) {
            Located at = resource.get("apiVersion") != null ? resource.get("apiVersion") : resource.node();
            throw new InputException(at.origin() + ": apiVersion: " + (api == null ? "missing" : "\"" + api + "\"")
                    + " is not allowed; expected one of networking.istio.io/v1, v1beta1 or v1alpha3");
        }
        return rule(resource.node(), map(resource.node(), "(document)"), source, lines, port, controller, overrides);
    }

    /**
     * The policies an Istio {@code TrafficPolicy} gives a service that has no subsets (a Flagger Canary's
     * {@code spec.service.trafficPolicy}, copied by Flagger into the DestinationRules it generates).
     *
     * @param name   the DestinationRule's name
     * @param policy the TrafficPolicy node, or null
     * @param path   where the policy is, for messages ({@code spec.service.trafficPolicy})
     * @param owner  the node to point at when there is no policy
     */
    public static List<IstioPolicy> fromTrafficPolicy(
            String name,
            String namespace,
            String host,
            Located policy,
            String path,
            Located owner,
            String source,
            List<String> lines,
            Integer port) {
        Rule r = new Rule(name, namespace, host, source, lines, DestinationRuleController.ISTIOD, IstioOverrides.NONE);
        List<IstioPolicy> out = new ArrayList<>();
        for (Scope s : scopes(policy, path, owner, port)) {
            out.add(r.policy(null, s));
        }
        return out;
    }

    private static List<IstioPolicy> rule(
            Located resource,
            Map<String, Located> r,
            String source,
            List<String> lines,
            Integer port,
            DestinationRuleController controller,
            IstioOverrides overrides) {
        Map<String, Located> metadata = r.containsKey("metadata") ? map(r.get("metadata"), "metadata") : Map.of();
        String name = string(metadata.get("name"));
        if (name == null || name.isBlank()) {
            throw new InputException(resource.origin() + ": metadata.name: a DestinationRule needs a name");
        }
        String namespace = string(metadata.get("namespace"));
        Located specNode = r.get("spec");
        if (specNode == null) {
            throw new InputException(resource.origin() + ": DestinationRule '" + name + "' has no spec");
        }
        Map<String, Located> spec = map(specNode, "spec");
        String host = string(spec.get("host"));
        Rule top = new Rule(name, namespace, host, source, lines, controller, overrides);

        Located policyNode = spec.get("trafficPolicy");
        List<IstioPolicy> out = new ArrayList<>();
        List<Scope> ruleScopes = scopes(policyNode, "spec.trafficPolicy", specNode, port);
        for (Scope s : ruleScopes) {
            out.add(top.policy(null, s));
        }
        Located subsetsNode = spec.get("subsets");
        if (subsetsNode != null && subsetsNode.value() instanceof List<?> subsets) {
            for (int i = 0; i < subsets.size(); i++) {
                Located subsetNode = (Located) subsets.get(i);
                String path = "spec.subsets[" + i + "]";
                Map<String, Located> subset = map(subsetNode, path);
                String subsetName = string(subset.get("name"));
                Located subsetPolicy = subset.get("trafficPolicy");
                Scope inherited = ruleScopes.get(0);
                for (Scope own : scopes(subsetPolicy, path + ".trafficPolicy", subsetNode, port)) {
                    Scope merged = own;
                    if (own.outlierDetection == null && !own.portLevel) {
                        // MergeSubsetTrafficPolicy: without its own outlierDetection a subset keeps the rule's
                        Scope base = port == null ? inherited : ruleScopes.get(0);
                        merged = new Scope(base.path, base.at, base.outlierDetection, own.port, false);
                    }
                    out.add(top.policy(subsetName, merged));
                }
            }
        }
        return out;
    }

    /** A place in a rule that gives one cluster its outlier detection. */
    private record Scope(String path, Located at, Located outlierDetection, Integer port, boolean portLevel) {}

    /**
     * The traffic policy's scopes: with a port, the one that applies to it (its port-level entry, else the
     * policy); without, the policy itself first, then each port-level entry.
     */
    private static List<Scope> scopes(Located policyNode, String path, Located owner, Integer port) {
        List<Scope> out = new ArrayList<>();
        if (policyNode == null || policyNode.value() == null) {
            out.add(new Scope(path, owner, null, port, false));
            return out;
        }
        Map<String, Located> policy = map(policyNode, path);
        OutlierKeyTypos.check(policy, path, List.of("outlierDetection"));
        Scope general = new Scope(path, policyNode, policy.get("outlierDetection"), port, false);
        List<Scope> portLevel = new ArrayList<>();
        Located pls = policy.get("portLevelSettings");
        if (pls != null && pls.value() instanceof List<?> entries) {
            for (int i = 0; i < entries.size(); i++) {
                Located entry = (Located) entries.get(i);
                String entryPath = path + ".portLevelSettings[" + i + "]";
                Map<String, Located> e = map(entry, entryPath);
                OutlierKeyTypos.check(e, entryPath, List.of("outlierDetection"));
                Integer number = portNumber(e.get("port"), entryPath);
                // GetPortLevelTrafficPolicy: the entry replaces the whole policy for its port, no inheritance
                portLevel.add(new Scope(entryPath, entry, e.get("outlierDetection"), number, true));
            }
        }
        if (port != null) {
            for (Scope s : portLevel) {
                if (port.equals(s.port)) {
                    out.add(s);
                    return out;
                }
            }
            out.add(general);
            return out;
        }
        out.add(general);
        out.addAll(portLevel);
        return out;
    }

    private static Integer portNumber(Located portNode, String path) {
        if (portNode == null) {
            return null;
        }
        Map<String, Located> p = map(portNode, path + ".port");
        Located n = p.get("number");
        if (n == null || !(n.value() instanceof Long l) || l < 1 || l > 65535) {
            throw new InputException((n == null ? portNode : n).origin() + ": " + path
                    + ".port.number: expected a port " + "number from 1 to 65535");
        }
        return l.intValue();
    }

    /** The parts of a rule every policy of it shares. */
    private record Rule(
            String name,
            String namespace,
            String host,
            String source,
            List<String> lines,
            DestinationRuleController controller,
            IstioOverrides overrides) {
        IstioPolicy policy(String subset, Scope given) {
            Scope s = overrides.isEmpty()
                    ? given
                    : new Scope(
                            given.path,
                            given.at,
                            overrides.over(
                                    given.outlierDetection == null || given.outlierDetection.value() == null
                                            ? null
                                            : given.outlierDetection),
                            given.port,
                            given.portLevel);
            Map<String, Located> trafficPolicy =
                    s.at != null && s.at.value() instanceof Map<?, ?> m && s.path.contains("rafficPolicy")
                            ? map(s.at, s.path)
                            : null;
            boolean od = s.outlierDetection != null && s.outlierDetection.value() != null;
            RoutingSpec routing = IstioRouting.of(trafficPolicy, od, null, false);
            IstioPolicy.Builder policy = IstioPolicy.builder()
                    .rule(name)
                    .namespace(namespace)
                    .host(host)
                    .subset(subset)
                    .port(s.port)
                    .scope(s.path)
                    .source(source)
                    .routing(routing);
            if (!od) {
                return policy.line(SourceLines.lineOf(s.at))
                        .panicThresholdPercent(50)
                        .build();
            }
            String path = s.path + ".outlierDetection";
            IstioOutlierTranslator.Result t = IstioOutlierTranslator.translate(s.outlierDetection, path, controller);
            int line = SourceLines.keyLine(lines, SourceLines.lineOf(s.outlierDetection), "outlierDetection");
            return policy.line(line)
                    .outlierDetection(t.config())
                    .panicThresholdPercent(t.panicThresholdPercent())
                    .fields(t.fields())
                    .warnings(t.warnings())
                    .notes(t.notes())
                    .build();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> map(Located node, String path) {
        if (!(node.value() instanceof Map)) {
            throw new InputException(node.origin() + ": " + path + ": expected a mapping");
        }
        return (Map<String, Located>) node.value();
    }

    private static String string(Located node) {
        return node != null && node.value() instanceof String s ? s : null;
    }
}
