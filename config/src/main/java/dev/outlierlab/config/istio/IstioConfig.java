package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The clusters' outlier settings that the DestinationRules of one file give, in file order.
 *
 * @param otherKinds the kinds of the documents that are not DestinationRules, in file order
 * @param controller the control plane whose translation the policies are
 */
public record IstioConfig(
        String source, List<IstioPolicy> policies, List<String> otherKinds, DestinationRuleController controller) {
    public IstioConfig {
        policies = List.copyOf(policies);
        otherKinds = List.copyOf(otherKinds);
    }

    /**
     * The one policy that matches: by rule name (when given), subset (none means the service's own cluster) and
     * port (none means the settings for ports without port-level ones).
     *
     * @throws InputException listing the choices when none or several match
     */
    public IstioPolicy select(String rule, String subset, Integer port) {
        List<IstioPolicy> matches = new ArrayList<>();
        for (IstioPolicy p : policies) {
            if ((rule == null || p.rule().equals(rule))
                    && Objects.equals(subset, p.subset())
                    && Objects.equals(port, p.port())) {
                matches.add(p);
            }
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (policies.isEmpty()) {
            throw new InputException(source + ": no DestinationRule in the file"
                    + (otherKinds.isEmpty() ? "" : " (found " + String.join(", ", otherKinds) + ")"));
        }
        List<String> names = new ArrayList<>();
        policies.forEach(p -> names.add(p.displayName()));
        if (matches.isEmpty()) {
            throw new InputException(source + ": no DestinationRule " + (rule == null ? "" : "'" + rule + "' ")
                    + (subset == null ? "" : "with subset '" + subset + "' ")
                    + (port == null ? "" : "for port " + port + " ")
                    + "here; the file has: "
                    + String.join(", ", names));
        }
        throw new InputException(source + ": " + matches.size() + " DestinationRules match; choose one with "
                + "--cluster RULE (and --subset NAME, --port N): " + String.join(", ", names));
    }

    /**
     * The policy istiod applies to the Envoy cluster named {@code envoyCluster}, as Istio names its outbound
     * clusters ({@code outbound|PORT|SUBSET|FQDN}, {@code model.BuildSubsetKey}): the rule whose {@code spec.host}
     * is the FQDN (or its short name, or a {@code *.} wildcard covering it), the subset's policy (the rule's own for
     * an empty subset), its port-level settings for the port when it has some. Null when {@code envoyCluster} is
     * not an Istio outbound cluster name.
     *
     * @throws InputException when it is one but no rule of the file applies to it
     */
    public IstioPolicy forCluster(String envoyCluster) {
        String[] parts = envoyCluster.split("\\|", -1);
        if (parts.length != 4 || !parts[0].equals("outbound") && !parts[0].equals("inbound")) {
            return null;
        }
        Integer port;
        try {
            port = Integer.valueOf(parts[1]);
        } catch (NumberFormatException e) {
            return null;
        }
        String subset = parts[2].isEmpty() ? null : parts[2];
        String fqdn = parts[3];
        IstioPolicy general = null;
        for (IstioPolicy p : policies) {
            if (!hostCovers(p.host(), fqdn) || !Objects.equals(subset, p.subset())) {
                continue;
            }
            if (Objects.equals(port, p.port())) {
                return p;
            }
            if (p.port() == null && general == null) {
                general = p;
            }
        }
        if (general != null) {
            return general;
        }
        List<String> names = new ArrayList<>();
        policies.forEach(p -> names.add(p.displayName() + " (host " + p.host() + ")"));
        throw new InputException(source + ": no DestinationRule applies to the cluster " + envoyCluster + " (host "
                + fqdn + (subset == null ? "" : ", subset " + subset) + ", port " + port + "); the file has: "
                + (names.isEmpty() ? "no DestinationRule" : String.join(", ", names)));
    }

    /** Whether a rule's {@code spec.host} (a FQDN, a short name, or a {@code *.} wildcard) names this FQDN. */
    static boolean hostCovers(String ruleHost, String fqdn) {
        if (ruleHost == null) {
            return false;
        }
        if (ruleHost.equals(fqdn) || ruleHost.equals("*")) {
            return true;
        }
        if (ruleHost.startsWith("*.")) {
            return fqdn.endsWith(ruleHost.substring(1));
        }
        // a short name resolves in the rule's namespace: reviews -> reviews.NS.svc.cluster.local
        return !ruleHost.contains(".") && fqdn.startsWith(ruleHost + ".");
    }
}
