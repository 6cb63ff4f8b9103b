package dev.outlierlab.config.kube;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.config.yaml.YamlDocuments;
import dev.outlierlab.config.yaml.YamlTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The resources of a Kubernetes manifest file: every YAML document (separated by {@code ---}), and the items
 * of a {@code kind: List}, each with its kind and apiVersion. Kuma's universal format, which says
 * {@code type: MeshCircuitBreaker} instead of {@code kind}, is read the same way. Line numbers are the file's.
 */
public final class Manifests {
    /**
     * One resource.
     *
     * @param kind       {@code kind} (or Kuma universal's {@code type}); null when the document has neither
     * @param apiVersion {@code apiVersion}, or null
     * @param node       the whole resource
     */
    public record Resource(String kind, String apiVersion, Located node) {
        /** A top-level field, or null. */
        public Located get(String key) {
            return node.value() instanceof Map<?, ?> m && m.get(key) instanceof Located l ? l : null;
        }

        /** {@code metadata.name}, or Kuma universal's top-level {@code name}, or null. */
        public String name() {
            Located metadata = get("metadata");
            Located name =
                    metadata != null && metadata.value() instanceof Map<?, ?> m && m.get("name") instanceof Located l
                            ? l
                            : get("name");
            return name != null && name.value() instanceof String s ? s : null;
        }

        /** {@code metadata.namespace}, or null. */
        public String namespace() {
            Located metadata = get("metadata");
            return metadata != null
                            && metadata.value() instanceof Map<?, ?> m
                            && m.get("namespace") instanceof Located l
                            && l.value() instanceof String s
                    ? s
                    : null;
        }
    }

    private Manifests() {}

    /** Every resource in the text, in file order. */
    public static List<Resource> read(String text, String source) {
        List<Resource> out = new ArrayList<>();
        for (YamlDocuments.Document doc : YamlDocuments.split(text)) {
            Located root = YamlTree.parse(doc.text(), source, doc.firstLine());
            if (!(root.value() instanceof Map<?, ?> map)) {
                throw new InputException(
                        root.origin() + ": expected a Kubernetes resource (a mapping with apiVersion and " + "kind)");
            }
            if ("List".equals(text((Located) map.get("kind")))
                    && map.get("items") instanceof Located items
                    && items.value() instanceof List<?> list) {
                for (Object item : list) {
                    out.add(resource((Located) item));
                }
            } else if (isCollection(map)) {
                // Envoy Gateway's translator inputs: top-level keys (gateways, httpRoutes, backendTrafficPolicies,
                // envoyProxyForGatewayClass, ...) each holding resources or a list of them
                for (Object v : map.values()) {
                    Located value = (Located) v;
                    if (value.value() instanceof List<?> list) {
                        list.forEach(item -> out.add(resource((Located) item)));
                    } else if (value.value() instanceof Map<?, ?>) {
                        out.add(resource(value));
                    }
                }
            } else {
                out.add(resource(root));
            }
        }
        return out;
    }

    /**
     * A mapping without kind whose every value is a resource or a list of resources (each a mapping with kind),
     * as Envoy Gateway's {@code internal/gatewayapi/testdata/*.in.yaml} are.
     */
    private static boolean isCollection(Map<?, ?> map) {
        if (map.isEmpty() || map.containsKey("kind") || map.containsKey("apiVersion") || map.containsKey("type")) {
            return false;
        }
        for (Object v : map.values()) {
            Object value = ((Located) v).value();
            boolean ok = value instanceof Map<?, ?> m && m.containsKey("kind")
                    || value instanceof List<?> list
                            && list.stream()
                                    .allMatch(
                                            x -> ((Located) x).value() instanceof Map<?, ?> m && m.containsKey("kind"));
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static Resource resource(Located node) {
        if (!(node.value() instanceof Map<?, ?> map)) {
            throw new InputException(
                    node.origin() + ": expected a Kubernetes resource (a mapping with apiVersion and kind)");
        }
        String kind = text((Located) map.get("kind"));
        if (kind == null) {
            kind = text((Located) map.get("type"));
        }
        return new Resource(kind, text((Located) map.get("apiVersion")), node);
    }

    private static String text(Located node) {
        return node != null && node.value() instanceof String s ? s : null;
    }
}
