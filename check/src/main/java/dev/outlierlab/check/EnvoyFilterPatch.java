package dev.outlierlab.check;

import dev.outlierlab.config.istio.IstioPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Istio EnvoyFilter that sets what a DestinationRule cannot: a {@code MERGE} of the Envoy fields into the
 * outbound cluster istiod builds for the rule's host (and subset and port, when the settings are theirs). Istio
 * merges the patch's value into the cluster proto after its own translation ({@code
 * pilot/pkg/networking/core/envoyfilter/cluster_patch.go}, {@code ApplyClusterMerge}), so the fields named here
 * replace istiod's values and every other field stays as the DestinationRule made it.
 *
 * @param rule      the DestinationRule's {@code metadata.name}, for the filter's name
 * @param namespace the rule's namespace, or null
 * @param service   the rule's {@code spec.host}
 * @param subset    the subset whose cluster to patch, or null for the service's own
 * @param port      the port whose cluster to patch, or null for every port
 */
public record EnvoyFilterPatch(String rule, String namespace, String service, String subset, Integer port) {

    /** The patch's match for the cluster of one translated policy. */
    public static EnvoyFilterPatch of(IstioPolicy p) {
        return new EnvoyFilterPatch(p.rule(), p.namespace(), p.host(), p.subset(), p.port());
    }

    /** The EnvoyFilter as YAML, setting the given Envoy fields ({@code outlier_detection.x}, {@code common_lb_config.x}). */
    public String render(List<FixStyle.Change> changes) {
        Map<String, List<String>> blocks = new LinkedHashMap<>();
        for (FixStyle.Change c : changes) {
            int dot = c.envoyPath().indexOf('.');
            String field = c.envoyPath().substring(dot + 1);
            List<String> lines = blocks.computeIfAbsent(c.envoyPath().substring(0, dot), k -> new ArrayList<>());
            if (field.equals("healthy_panic_threshold")) {
                lines.add(field + ":");
                lines.add("  value: " + c.value());
            } else {
                lines.add(field + ": " + c.value());
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("apiVersion: networking.istio.io/v1alpha3\n")
                .append("kind: EnvoyFilter\n")
                .append("metadata:\n")
                .append("  name: ")
                .append(rule)
                .append(subset == null ? "" : "-" + subset)
                .append("-outlier-detection\n");
        if (namespace != null) {
            sb.append("  namespace: ").append(namespace).append('\n');
        }
        sb.append("spec:\n")
                .append("  configPatches:\n")
                .append("  - applyTo: CLUSTER\n")
                .append("    match:\n")
                .append("      context: SIDECAR_OUTBOUND\n")
                .append("      cluster:\n")
                .append("        service: ")
                .append(service)
                .append('\n');
        if (subset != null) {
            sb.append("        subset: ").append(subset).append('\n');
        }
        if (port != null) {
            sb.append("        portNumber: ").append(port).append('\n');
        }
        sb.append("    patch:\n").append("      operation: MERGE\n").append("      value:\n");
        blocks.forEach((block, lines) -> {
            sb.append("        ").append(block).append(":\n");
            lines.forEach(l -> sb.append("          ").append(l).append('\n'));
        });
        return sb.toString();
    }
}
