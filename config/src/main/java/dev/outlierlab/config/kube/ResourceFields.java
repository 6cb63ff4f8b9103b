package dev.outlierlab.config.kube;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.istio.GoDuration;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Typed reads of one mapping of a Kubernetes resource, with messages that name the path, the value, the line
 * and what is allowed; unknown fields are refused with the known ones listed (the CRDs' schemas are closed).
 */
public final class ResourceFields {
    private final Map<String, Located> map;
    private final String path;

    private ResourceFields(Map<String, Located> map, String path) {
        this.map = map;
        this.path = path;
    }

    /** The mapping at {@code node}, which may only hold {@code known} fields; null when the node is absent. */
    @SuppressWarnings("unchecked")
    public static ResourceFields of(Located node, String path, Set<String> known) {
        if (node == null || node.value() == null) {
            return null;
        }
        if (!(node.value() instanceof Map)) {
            throw new InputException(node.origin() + ": " + path + ": " + Wording.describe(node.value())
                    + " is the wrong type; expected a mapping");
        }
        Map<String, Located> map = (Map<String, Located>) node.value();
        for (Map.Entry<String, Located> e : map.entrySet()) {
            if (!known.contains(e.getKey())) {
                String near = Wording.nearest(e.getKey(), known);
                throw new InputException(e.getValue().origin() + ": unknown field '" + path + "." + e.getKey() + "'"
                        + (near == null ? "" : "; did you mean " + near + "?") + " Known fields: "
                        + String.join(", ", new TreeSet<>(known)));
            }
        }
        return new ResourceFields(map, path);
    }

    public Located node(String key) {
        return map.get(key);
    }

    public String path(String key) {
        return path + "." + key;
    }

    public Long uint32(String key) {
        Located n = map.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        if (n.value() instanceof Long l && l >= 0 && l <= OutlierSetting.UINT32_MAX) {
            return l;
        }
        throw error(n, key, "a whole number from 0 to " + OutlierSetting.UINT32_MAX);
    }

    public Long percent(String key) {
        Located n = map.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        if (n.value() instanceof Long l && l >= 0 && l <= 100) {
            return l;
        }
        throw error(n, key, "a whole percentage from 0 to 100");
    }

    public Boolean bool(String key) {
        Located n = map.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        if (n.value() instanceof Boolean b) {
            return b;
        }
        throw error(n, key, "true or false");
    }

    /** A Go duration ({@code 10s}, {@code 500ms}, {@code 1m30s}) in whole milliseconds, as nanoseconds. */
    public Long duration(String key) {
        Located n = map.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        long nanos = n.value() instanceof String s ? GoDuration.parse(s.strip()) : -1;
        if (nanos < Durations.MILLISECOND || nanos % Durations.MILLISECOND != 0 || nanos > Durations.MAX_NANOS) {
            throw error(n, key, "a duration such as 10s, 5m, 1h or 250ms, at least 1ms and in whole milliseconds");
        }
        return nanos;
    }

    /** A number or a decimal string (Kubernetes' IntOrString holding a decimal), exactly. */
    public BigDecimal decimal(String key) {
        Located n = map.get(key);
        if (n == null || n.value() == null) {
            return null;
        }
        try {
            if (n.value() instanceof Long l) {
                return BigDecimal.valueOf(l);
            }
            if (n.value() instanceof BigDecimal d) {
                return d;
            }
            if (n.value() instanceof String s) {
                return new BigDecimal(s.strip());
            }
        } catch (NumberFormatException e) {
            // fall through to the message
        }
        throw error(n, key, "a number, or a string holding a decimal such as \"1.9\"");
    }

    public String text(Located n) {
        return String.valueOf(n.value());
    }

    private InputException error(Located n, String key, String allowed) {
        return new InputException(n.origin() + ": " + path(key) + ": " + Wording.describe(n.value())
                + " is not allowed; " + "expected " + allowed);
    }
}
