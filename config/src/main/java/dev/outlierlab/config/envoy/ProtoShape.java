package dev.outlierlab.config.envoy;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks a YAML tree against a protobuf message type before it is handed to protobuf's JSON parser, so that
 * every mistake is reported with its path and line: a value of the wrong type, an enum name or number that
 * does not exist, an {@code @type} the reader does not know, two fields of one {@code oneof}. A scalar's value is
 * checked by {@link ProtoScalars}. Follows the proto3
 * JSON mapping: fields by their proto or JSON name, the well-known types' special forms ({@code "10s"} for
 * Duration, a bare value for wrappers, anything for Struct).
 *
 * <p>It returns the tree as Envoy would read it: enum names in any case become the proto's name (Envoy's YAML
 * loader accepts {@code codec_type: auto}), and a field the bundled protos (envoy api 1.0.49) do not know is
 * dropped with a note naming it, because it may be a field of a newer Envoy; inside {@code OutlierDetection},
 * whose every current field the lab reads, an unknown field stays an error (a typo there changes what the
 * check says), but for {@code detect_degraded_hosts} (Envoy 1.38), which the cluster reader takes by name. An enum number Envoy's {@code (validate.rules).enum.defined_only} refuses is an error.
 */
final class ProtoShape {
    private static final Pattern DURATION = Pattern.compile("-?[0-9]+(\\.[0-9]{1,9})?s");
    private static final Set<String> WRAPPERS = Set.of(
            "google.protobuf.DoubleValue",
            "google.protobuf.FloatValue",
            "google.protobuf.Int64Value",
            "google.protobuf.UInt64Value",
            "google.protobuf.Int32Value",
            "google.protobuf.UInt32Value",
            "google.protobuf.BoolValue",
            "google.protobuf.StringValue",
            "google.protobuf.BytesValue");

    /** Messages in which an unknown field is an error rather than a note: the parts the lab models field by field. */
    private static final Set<String> STRICT = Set.of("envoy.config.cluster.v3.OutlierDetection");

    private final ProtoTypes types;
    private final List<String> notes = new ArrayList<>();

    ProtoShape(ProtoTypes types) {
        this.types = types;
    }

    /** What was read past: fields the bundled protos do not know, each with its path and line. */
    List<String> notes() {
        return List.copyOf(notes);
    }

    /**
     * Checks {@code node} as a {@code type} message at {@code path} (empty for the document root) and returns it
     * as protobuf's parser should see it (canonical enum names, unknown fields outside outlier detection dropped).
     */
    Located check(Located node, Descriptor type, String path) {
        if (node.value() == null) {
            return node;
        }
        String full = type.getFullName();
        switch (full) {
            case "google.protobuf.Any" -> {
                return checkAny(node, path);
            }
            case "google.protobuf.Duration" -> {
                if (!(node.value() instanceof String s) || !DURATION.matcher(s).matches()) {
                    throw wrongType(
                            node,
                            path,
                            "a duration in seconds with an s, such as \"10s\" or \"0.25s\""
                                    + " (Envoy's JSON form; 250ms is written 0.25s)");
                }
            }
            case "google.protobuf.Timestamp", "google.protobuf.FieldMask" -> {
                if (!(node.value() instanceof String)) {
                    throw wrongType(node, path, "a string");
                }
            }
            case "google.protobuf.Struct" -> {
                if (!(node.value() instanceof Map)) {
                    throw wrongType(node, path, "a mapping");
                }
            }
            case "google.protobuf.ListValue" -> {
                if (!(node.value() instanceof List)) {
                    throw wrongType(node, path, "a list");
                }
            }
            case "google.protobuf.Value" -> {
                // any JSON value
            }
            default -> {
                if (WRAPPERS.contains(full)) {
                    return ProtoScalars.check(node, type.findFieldByName("value"), path);
                }
                return checkFields(node, type, path);
            }
        }
        return node;
    }

    private Located checkAny(Located node, String path) {
        Map<String, Located> map = mapping(node, path, "a mapping with an @type");
        Located typeNode = map.get("@type");
        if (typeNode == null || !(typeNode.value() instanceof String url) || url.isBlank()) {
            throw new InputException(
                    node.origin() + ": " + display(path) + ": a typed_config (google.protobuf.Any) "
                            + "needs \"@type\", e.g. type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions");
        }
        Descriptor inner;
        try {
            inner = types.resolve(url);
        } catch (IllegalArgumentException e) {
            throw new InputException(typeNode.origin() + ": " + join(path, "@type") + ": " + e.getMessage());
        }
        String innerName = inner.getFullName();
        boolean special = WRAPPERS.contains(innerName)
                || innerName.startsWith("google.protobuf.")
                        && Set.of("Duration", "Timestamp", "FieldMask", "Struct", "Value", "ListValue", "Any")
                                .contains(innerName.substring("google.protobuf.".length()));
        Map<String, Located> rest = new LinkedHashMap<>(map);
        rest.remove("@type");
        if (special) {
            Located value = rest.remove("value");
            if (!rest.isEmpty()) {
                String key = rest.keySet().iterator().next();
                throw unknown(rest.get(key), join(path, key), inner, key);
            }
            LinkedHashMap<String, Located> out = new LinkedHashMap<>();
            out.put("@type", typeNode);
            if (value != null) {
                out.put("value", check(value, inner, join(path, "value")));
            }
            return new Located(out, node.origin());
        }
        Located fields = checkFields(new Located(rest, node.origin()), inner, path);
        LinkedHashMap<String, Located> out = new LinkedHashMap<>();
        out.put("@type", typeNode);
        out.putAll(asMap(fields));
        return new Located(out, node.origin());
    }

    private Located checkFields(Located node, Descriptor type, String path) {
        Map<String, Located> map = mapping(node, path, "a mapping (a " + type.getName() + " message)");
        Map<OneofDescriptor, String> oneofs = new HashMap<>();
        LinkedHashMap<String, Located> out = new LinkedHashMap<>();
        for (Map.Entry<String, Located> e : map.entrySet()) {
            String key = e.getKey();
            String fieldPath = join(path, key);
            FieldDescriptor f = field(type, key);
            if (f == null) {
                boolean newer = STRICT.contains(type.getFullName()) && newerOutlierField(key);
                if (STRICT.contains(type.getFullName()) && !newer) {
                    throw unknown(e.getValue(), fieldPath, type, key);
                }
                if (type.getFullName().equals("envoy.config.cluster.v3.Cluster")) {
                    // outlier_detecton: Envoy rejects the cluster; read past, it would have no outlier detection
                    OutlierKeyTypos.check(
                            Map.of(key, e.getValue()), path, List.of("outlier_detection", "outlierDetection"));
                }
                notes.add(unknownNote(e.getValue(), fieldPath, type, key));
                if (newer) {
                    out.put(key, e.getValue()); // kept for the cluster reader; EnvoyConfigReader.toJson leaves it out
                }
                continue;
            }
            Located value = e.getValue();
            if (value.value() == null) {
                out.put(key, value);
                continue;
            }
            OneofDescriptor oneof = f.getRealContainingOneof();
            if (oneof != null) {
                String other = oneofs.putIfAbsent(oneof, key);
                if (other != null) {
                    throw new InputException(value.origin() + ": " + display(fieldPath) + ": only one of " + other
                            + " and " + key + " may be set (they are alternatives: oneof " + oneof.getName() + ")");
                }
            }
            if (f.isMapField()) {
                Map<String, Located> entries = mapping(value, fieldPath, "a mapping");
                FieldDescriptor valueField = f.getMessageType().findFieldByName("value");
                LinkedHashMap<String, Located> checked = new LinkedHashMap<>();
                for (Map.Entry<String, Located> entry : entries.entrySet()) {
                    checked.put(
                            entry.getKey(), checkValue(entry.getValue(), valueField, fieldPath + "." + entry.getKey()));
                }
                out.put(key, new Located(checked, value.origin()));
            } else if (f.isRepeated()) {
                if (!(value.value() instanceof List<?> list)) {
                    throw wrongType(value, fieldPath, "a list");
                }
                List<Located> checked = new ArrayList<>();
                for (int i = 0; i < list.size(); i++) {
                    checked.add(checkValue((Located) list.get(i), f, fieldPath + "[" + i + "]"));
                }
                out.put(key, new Located(checked, value.origin()));
            } else {
                out.put(key, checkValue(value, f, fieldPath));
            }
        }
        return new Located(out, node.origin());
    }

    private Located checkValue(Located value, FieldDescriptor f, String path) {
        if (value.value() == null) {
            return value;
        }
        if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            return check(value, f.getMessageType(), path);
        }
        return ProtoScalars.check(value, f, path);
    }

    /** A field by its proto name ({@code outlier_detection}) or its JSON name ({@code outlierDetection}). */
    static FieldDescriptor field(Descriptor type, String key) {
        FieldDescriptor f = type.findFieldByName(key);
        if (f != null) {
            return f;
        }
        for (FieldDescriptor candidate : type.getFields()) {
            if (candidate.getJsonName().equals(key)) {
                return candidate;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> mapping(Located node, String path, String expected) {
        if (!(node.value() instanceof Map)) {
            throw wrongType(node, path, expected);
        }
        return (Map<String, Located>) node.value();
    }

    /** A field of a newer Envoy's OutlierDetection that the cluster reader takes by name ({@code detect_degraded_hosts}). */
    static boolean newerOutlierField(String key) {
        return key.equals("detect_degraded_hosts") || key.equals("detectDegradedHosts");
    }

    static InputException wrongType(Located node, String path, String expected) {
        return new InputException(node.origin() + ": " + display(path) + ": " + Wording.describe(node.value())
                + " is the wrong type; expected " + expected);
    }

    private static String unknownNote(Located at, String path, Descriptor type, String key) {
        TreeSet<String> names = new TreeSet<>();
        for (FieldDescriptor f : type.getFields()) {
            names.add(f.getName());
        }
        String near = Wording.nearest(key, names);
        if (type.getFullName().equals("envoy.extensions.upstreams.http.v3.HttpProtocolOptions")
                && (key.equals("outlier_detection") || key.equals("outlierDetection"))) {
            // Envoy's newer HttpProtocolOptions.outlier_detection.error_matcher (what istiod writes for
            // outlierDetectionHttpErrorCodes) decides which responses count as errors
            return "line " + SourceLines.lineOf(at) + ": " + path + " (a newer Envoy's error_matcher: which responses "
                    + "count as errors for outlier detection) is not modelled: the findings assume Envoy's default, "
                    + "5xx responses and local-origin failures";
        }
        if (type.getFullName().equals("envoy.config.cluster.v3.OutlierDetection")
                && (key.equals("detect_degraded_hosts") || key.equals("detectDegradedHosts"))) {
            return "line " + SourceLines.lineOf(at) + ": " + path + " (Envoy 1.38) is read: a 2xx response with "
                    + "x-envoy-degraded marks its host degraded (a scenario's fault of kind: degraded sends such "
                    + "responses); without one no host is degraded and ejections_detected_degradation stays 0";
        }
        return "line " + SourceLines.lineOf(at) + ": " + path + " is not a field of " + type.getFullName()
                + " in the bundled Envoy API (envoy api 1.0.49): read past, as a field of a newer Envoy; if it is not one, "
                + "Envoy rejects the file" + (near == null ? "" : " (did you mean " + near + "?)");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> asMap(Located node) {
        return (Map<String, Located>) node.value();
    }

    private static InputException unknown(Located at, String path, Descriptor type, String key) {
        TreeSet<String> names = new TreeSet<>();
        for (FieldDescriptor f : type.getFields()) {
            names.add(f.getName());
        }
        String near = Wording.nearest(key, names);
        return new InputException(
                at.origin() + ": unknown field '" + path + "' (" + type.getFullName() + " has no field "
                        + key + ")" + (near == null ? "" : "; did you mean " + near + "?")
                        + (names.size() <= 30 ? " Known fields: " + String.join(", ", names) : ""));
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    static String display(String path) {
        return path.isEmpty() ? "(top level)" : path;
    }
}
