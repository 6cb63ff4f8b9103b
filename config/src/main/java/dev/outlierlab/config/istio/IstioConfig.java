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
public record IstioConfig(String source, List<IstioPolicy> policies, List<String> otherKinds,
                          DestinationRuleController controller) {
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
            if ((rule == null || p.rule().equals(rule)) && Objects.equals(subset, p.subset())
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
                    + (subset == null ? "" : "with subset '" + subset + "' ") + (port == null ? "" : "for port " + port + " ")
                    + "here; the file has: "
                    + String.join(", ", names));
        }
        throw new InputException(source + ": " + matches.size() + " DestinationRules match; choose one with "
                + "--cluster RULE (and --subset NAME, --port N): " + String.join(", ", names));
    }
}
