package dev.outlierlab.config.kube;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Admiral's {@code OutlierDetection} (admiral.io/v1alpha1, istio-ecosystem/admiral): {@code spec.outlier_config}
 * with {@code base_ejection_time} and {@code interval} in whole seconds and {@code consecutive_gateway_errors}.
 * Admiral writes it into the DestinationRule it generates, and istiod translates that. Followed from
 * istio-ecosystem/admiral {@code admiral/pkg/clusters/destinationrule_handler.go} ({@code getOutlierDetection},
 * {@code getOutlierDetectionSkeleton}): {@code consecutiveGatewayErrors}, {@code interval} and
 * {@code baseEjectionTime} from the resource, {@code consecutive5xxErrors: 0} (so that only gateway errors
 * eject), and {@code maxEjectionPercent: 100} when the ServiceEntry has two or more endpoints (33 with one remote
 * endpoint; none at all with one local one), which is what this reader assumes.
 */
public final class AdmiralOutlierDetections {
    private static final Set<String> FIELDS = Set.of("base_ejection_time", "consecutive_gateway_errors", "interval");

    private AdmiralOutlierDetections() {}

    /** The DestinationRule settings Admiral writes for the resource, as istiod translates them. */
    public static List<IstioPolicy> read(Manifests.Resource r, String source, List<String> lines, Integer port) {
        Located spec = r.get("spec");
        Located config =
                spec != null && spec.value() instanceof Map<?, ?> m && m.get("outlier_config") instanceof Located l
                        ? l
                        : null;
        if (config == null || config.value() == null) {
            return List.of();
        }
        ResourceFields f = ResourceFields.of(config, "spec.outlier_config", FIELDS);
        LinkedHashMap<String, Located> od = new LinkedHashMap<>();
        Long gateway = f.uint32("consecutive_gateway_errors");
        od.put(
                "consecutiveGatewayErrors",
                new Located(gateway == null ? 0L : gateway, at(f, "consecutive_gateway_errors", config)));
        od.put("consecutive5xxErrors", new Located(0L, config.origin()));
        seconds(f, "interval", "interval", od, config);
        seconds(f, "base_ejection_time", "baseEjectionTime", od, config);
        od.put("maxEjectionPercent", new Located(100L, config.origin()));
        LinkedHashMap<String, Located> policy = new LinkedHashMap<>();
        policy.put("outlierDetection", new Located(od, config.origin()));
        String name = r.name() == null ? "OutlierDetection" : r.name();
        List<IstioPolicy> out = new ArrayList<>();
        for (IstioPolicy p : DestinationRuleReader.fromTrafficPolicy(
                name,
                r.namespace(),
                null,
                new Located(policy, config.origin()),
                "spec.outlier_config",
                config,
                source,
                lines,
                port)) {
            List<String> notes = new ArrayList<>(p.notes());
            notes.add("Admiral writes outlier_config into its DestinationRule as consecutiveGatewayErrors, interval "
                    + "and baseEjectionTime (seconds), with consecutive5xxErrors 0 and maxEjectionPercent 100, "
                    + "assuming the ServiceEntry has two or more endpoints (33 with one remote endpoint, no outlier "
                    + "detection with one local one)");
            // routed as istiod routes a rule without a traffic policy of its own
            out.add(p.toBuilder().notes(notes).routing(null).build());
        }
        return out;
    }

    private static void seconds(
            ResourceFields f, String key, String istioKey, Map<String, Located> od, Located config) {
        Located n = f.node(key);
        if (n == null || n.value() == null) {
            return;
        }
        if (!(n.value() instanceof Long s) || s < 1 || s > 315_576_000_000L) {
            throw new InputException(n.origin() + ": " + f.path(key) + ": " + Wording.describe(n.value()) + " is not "
                    + "allowed; expected a whole number of seconds from 1");
        }
        od.put(istioKey, new Located(s + "s", n.origin()));
    }

    private static String at(ResourceFields f, String key, Located config) {
        Located n = f.node(key);
        return n == null ? config.origin() : n.origin();
    }
}
