package dev.outlierlab.tune;

import static dev.outlierlab.tune.YamlNodes.mapping;
import static dev.outlierlab.tune.YamlNodes.scalar;
import static dev.outlierlab.tune.YamlNodes.unquoted;

import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;

/**
 * The smallest change in the target's idiom: an Istio merge patch of the outlier block
 * ({@code kubectl patch destinationrule NAME -n NAMESPACE --type merge -p '...'}; a JSON patch for a subset's own
 * block, as a merge patch would replace the subsets list whole), or the Envoy fields with the cluster they go in.
 */
final class TargetPatch {
    private TargetPatch() {}

    /** The patch that sets {@code changes} (key to YAML scalar) in the block {@code at}; null when nothing changes. */
    static String of(EnvoyTarget target, OutlierBlock at, Map<String, String> changes) {
        if (changes.isEmpty()) {
            return null;
        }
        if (target == EnvoyTarget.ISTIO) {
            MappingNode meta = mapping(at.document(), "metadata");
            String name = meta == null ? null : scalar(meta, "name");
            String ns = meta == null ? null : scalar(meta, "namespace");
            String rule =
                    "kubectl patch destinationrule " + (name == null ? "NAME" : name) + (ns == null ? "" : " -n " + ns);
            return at.subsetIndex() >= 0
                    ? rule + " --type json -p '" + subsetOperations(at.subsetIndex(), changes) + "'"
                    : rule + " --type merge -p '" + mergeBody(changes) + "'";
        }
        String cluster = scalar(at.parent(), "name");
        StringBuilder sb = new StringBuilder("# in the cluster named " + (cluster == null ? "(unnamed)" : cluster)
                + ", under outlier_detection:\noutlier_detection:\n");
        changes.forEach(
                (k, v) -> sb.append("  ").append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }

    /** A JSON patch reaching into the subset ({@code add} replaces a member). */
    private static String subsetOperations(int subsetIndex, Map<String, String> changes) {
        StringBuilder ops = new StringBuilder("[");
        boolean first = true;
        for (Map.Entry<String, String> e : changes.entrySet()) {
            ops.append(first ? "" : ",")
                    .append("{\"op\":\"add\",\"path\":\"/spec/subsets/")
                    .append(subsetIndex)
                    .append("/trafficPolicy/outlierDetection/")
                    .append(e.getKey())
                    .append("\",\"value\":")
                    .append(json(e.getValue()))
                    .append('}');
            first = false;
        }
        return ops.append(']').toString();
    }

    /** A merge patch of the rule's outlier block. */
    private static String mergeBody(Map<String, String> changes) {
        StringBuilder body = new StringBuilder("{\"spec\":{\"trafficPolicy\":{\"outlierDetection\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : changes.entrySet()) {
            body.append(first ? "" : ",")
                    .append('"')
                    .append(e.getKey())
                    .append("\":")
                    .append(json(e.getValue()));
            first = false;
        }
        return body.append("}}}}").toString();
    }

    /** A YAML scalar as a JSON value: a whole number as it is, anything else as a string. */
    private static String json(String yamlScalar) {
        String v = unquoted(yamlScalar);
        return v.matches("-?[0-9]+") ? v : "\"" + v + "\"";
    }
}
