package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.kube.Manifests;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A DestinationRule's {@code outlierDetection} as its own fields, read from the file and written back into it: the
 * fields as the rule gives them to one cluster ({@link IstioPolicy#scope()}: the rule's, a subset's or a port's
 * block), and the file's text with that one block replaced, every other line of the file kept as it was
 * (connection pools, load balancers, TLS, other subsets, comments outside the block).
 */
public final class IstioRuleEdit {
    private IstioRuleEdit() {}

    /** The fields of the block the policy's settings come from, in the file's order; empty when it has none. */
    public static Map<String, Object> fields(String text, String source, IstioPolicy policy) {
        Map<String, Object> out = new LinkedHashMap<>();
        Located block = block(text, source, policy);
        if (block != null && block.value() instanceof Map<?, ?> m) {
            m.forEach((k, v) -> out.put(String.valueOf(k), plain(((Located) v).value())));
        }
        return out;
    }

    /**
     * The file's text with the policy's {@code outlierDetection} block holding exactly {@code fields} (Istio's names,
     * in order), re-read as istiod would to make sure it is still a valid rule.
     *
     * @throws InputException when the policy's scope has no outlierDetection block to edit, or the result is invalid
     */
    public static String replaced(String text, String source, IstioPolicy policy, Map<String, Object> fields) {
        for (String name : fields.keySet()) {
            if (!IstioOutlierTranslator.FIELDS.contains(name)) {
                throw new InputException(name + ": Istio's OutlierDetection has no such field; known fields: "
                        + String.join(", ", new TreeSet<>(IstioOutlierTranslator.FIELDS)));
            }
        }
        List<String> lines = new ArrayList<>(text.lines().toList());
        int key = policy.line() - 1;
        if (block(text, source, policy) == null
                || key < 0
                || key >= lines.size()
                || !lines.get(key).strip().startsWith("outlierDetection:")) {
            throw new InputException(source + ": " + policy.scope() + " of DestinationRule '" + policy.rule()
                    + "' has no outlierDetection block to edit; add one to the rule first");
        }
        String keyLine = lines.get(key);
        int indent = keyLine.length() - keyLine.stripLeading().length();
        int end = key + 1;
        while (end < lines.size()
                && (lines.get(end).isBlank()
                        || lines.get(end).length()
                                        - lines.get(end).stripLeading().length()
                                > indent)) {
            end++;
        }
        while (end > key + 1 && lines.get(end - 1).isBlank()) {
            end--;
        }
        List<String> block = new ArrayList<>();
        block.add(keyLine.substring(0, indent) + "outlierDetection:" + (fields.isEmpty() ? " {}" : ""));
        String pad = " ".repeat(indent + 2);
        fields.forEach((k, v) -> block.add(pad + k + ": " + scalar(v)));
        List<String> out = new ArrayList<>(lines.subList(0, key));
        out.addAll(block);
        out.addAll(lines.subList(end, lines.size()));
        String result = String.join("\n", out) + "\n";
        DestinationRuleReader.read(result, source, policy.port(), null)
                .select(policy.rule(), policy.subset(), policy.port());
        return result;
    }

    private static String scalar(Object v) {
        if (v instanceof Number || v instanceof Boolean) {
            return String.valueOf(v);
        }
        if (v instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            list.forEach(x -> parts.add(scalar(x)));
            return "[" + String.join(", ", parts) + "]";
        }
        String s = String.valueOf(v);
        return s.matches("[0-9]+(\\.[0-9]+)?(ms|s|m|h)")
                ? s
                : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static Located block(String text, String source, IstioPolicy policy) {
        for (Manifests.Resource r : Manifests.read(text, source)) {
            if (!"DestinationRule".equals(r.kind())) {
                continue;
            }
            Located meta = r.get("metadata");
            Object name = meta != null && meta.value() instanceof Map<?, ?> m && m.get("name") instanceof Located n
                    ? n.value()
                    : null;
            if (!policy.rule().equals(name)) {
                continue;
            }
            Located scope = walk(r.node(), policy.scope());
            if (scope != null
                    && scope.value() instanceof Map<?, ?> m
                    && m.get("outlierDetection") instanceof Located od
                    && od.value() != null) {
                return od;
            }
            return null;
        }
        return null;
    }

    /** The node at a dotted path with list indexes ({@code spec.subsets[1].trafficPolicy}), or null. */
    private static Located walk(Located node, String path) {
        Located cur = node;
        for (String part : path.split("\\.")) {
            String name = part.contains("[") ? part.substring(0, part.indexOf('[')) : part;
            if (!(cur.value() instanceof Map<?, ?> m) || !(m.get(name) instanceof Located next)) {
                return null;
            }
            cur = next;
            if (part.contains("[")) {
                int i = Integer.parseInt(part.substring(part.indexOf('[') + 1, part.indexOf(']')));
                if (!(cur.value() instanceof List<?> list) || i >= list.size()) {
                    return null;
                }
                cur = (Located) list.get(i);
            }
        }
        return cur;
    }

    private static Object plain(Object v) {
        if (v instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(x -> out.add(plain(x instanceof Located l ? l.value() : x)));
            return out;
        }
        return v;
    }
}
