package dev.outlierlab.config.envoy;

import dev.outlierlab.config.Wording;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks a YAML tree against a protobuf message type before it is handed to protobuf's JSON parser, so that
 * every mistake is reported with its path and line: an unknown field (with the nearest known name), a value
 * of the wrong type, an enum name that does not exist, an {@code @type} the reader does not know, two fields
 * of one {@code oneof}. Follows the proto3 JSON mapping: fields by their proto or JSON name, the well-known
 * types' special forms ({@code "10s"} for Duration, a bare value for wrappers, anything for Struct).
 */
final class ProtoShape {
    private static final Pattern DURATION = Pattern.compile("-?[0-9]+(\\.[0-9]{1,9})?s");
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
    private static final Set<String> WRAPPERS = Set.of("google.protobuf.DoubleValue", "google.protobuf.FloatValue",
            "google.protobuf.Int64Value", "google.protobuf.UInt64Value", "google.protobuf.Int32Value",
            "google.protobuf.UInt32Value", "google.protobuf.BoolValue", "google.protobuf.StringValue",
            "google.protobuf.BytesValue");

    private final ProtoTypes types;

    ProtoShape(ProtoTypes types) {
        this.types = types;
    }

    /** Checks {@code node} as a {@code type} message at {@code path} (empty for the document root). */
    void check(Located node, Descriptor type, String path) {
        if (node.value() == null) {
            return;
        }
        String full = type.getFullName();
        switch (full) {
            case "google.protobuf.Any" -> checkAny(node, path);
            case "google.protobuf.Duration" -> {
                if (!(node.value() instanceof String s) || !DURATION.matcher(s).matches()) {
                    throw wrongType(node, path, "a duration in seconds with an s, such as \"10s\" or \"0.25s\""
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
                    checkScalar(node, type.findFieldByName("value"), path);
                } else {
                    checkFields(node, type, path);
                }
            }
        }
    }

    private void checkAny(Located node, String path) {
        Map<String, Located> map = mapping(node, path, "a mapping with an @type");
        Located typeNode = map.get("@type");
        if (typeNode == null || !(typeNode.value() instanceof String url) || url.isBlank()) {
            throw new InputException(node.origin() + ": " + display(path) + ": a typed_config (google.protobuf.Any) "
                    + "needs \"@type\", e.g. type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions");
        }
        Descriptor inner;
        try {
            inner = types.resolve(url);
        } catch (IllegalArgumentException e) {
            throw new InputException(typeNode.origin() + ": " + join(path, "@type") + ": " + e.getMessage());
        }
        String innerName = inner.getFullName();
        boolean special = WRAPPERS.contains(innerName) || innerName.startsWith("google.protobuf.")
                && Set.of("Duration", "Timestamp", "FieldMask", "Struct", "Value", "ListValue", "Any")
                        .contains(innerName.substring("google.protobuf.".length()));
        Map<String, Located> rest = new java.util.LinkedHashMap<>(map);
        rest.remove("@type");
        if (special) {
            Located value = rest.remove("value");
            if (!rest.isEmpty()) {
                String key = rest.keySet().iterator().next();
                throw unknown(rest.get(key), join(path, key), inner, key);
            }
            if (value != null) {
                check(value, inner, join(path, "value"));
            }
            return;
        }
        checkFields(new Located(rest, node.origin()), inner, path);
    }

    private void checkFields(Located node, Descriptor type, String path) {
        Map<String, Located> map = mapping(node, path, "a mapping (a " + type.getName() + " message)");
        Map<OneofDescriptor, String> oneofs = new HashMap<>();
        for (Map.Entry<String, Located> e : map.entrySet()) {
            String key = e.getKey();
            String fieldPath = join(path, key);
            FieldDescriptor f = field(type, key);
            if (f == null) {
                throw unknown(e.getValue(), fieldPath, type, key);
            }
            Located value = e.getValue();
            if (value.value() == null) {
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
                for (Map.Entry<String, Located> entry : entries.entrySet()) {
                    checkValue(entry.getValue(), valueField, fieldPath + "." + entry.getKey());
                }
            } else if (f.isRepeated()) {
                if (!(value.value() instanceof List<?> list)) {
                    throw wrongType(value, fieldPath, "a list");
                }
                for (int i = 0; i < list.size(); i++) {
                    checkValue((Located) list.get(i), f, fieldPath + "[" + i + "]");
                }
            } else {
                checkValue(value, f, fieldPath);
            }
        }
    }

    private void checkValue(Located value, FieldDescriptor f, String path) {
        if (value.value() == null) {
            return;
        }
        if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
            check(value, f.getMessageType(), path);
        } else {
            checkScalar(value, f, path);
        }
    }

    private static void checkScalar(Located node, FieldDescriptor f, String path) {
        Object v = node.value();
        switch (f.getJavaType()) {
            case BOOLEAN -> {
                if (!(v instanceof Boolean)) {
                    throw wrongType(node, path, "true or false");
                }
            }
            case INT, LONG -> checkInteger(node, f, path);
            case FLOAT, DOUBLE -> {
                boolean ok = v instanceof Long || v instanceof BigDecimal
                        || v instanceof String s && Set.of("NaN", "Infinity", "-Infinity").contains(s);
                if (!ok) {
                    throw wrongType(node, path, "a number");
                }
            }
            case ENUM -> checkEnum(node, f.getEnumType(), path);
            case STRING, BYTE_STRING -> {
                if (v instanceof Map || v instanceof List) {
                    throw wrongType(node, path, "a string");
                }
            }
            default -> throw new IllegalStateException("unexpected field type " + f.getJavaType());
        }
    }

    private static void checkInteger(Located node, FieldDescriptor f, String path) {
        Object v = node.value();
        BigInteger n = null;
        if (v instanceof Long l) {
            n = BigInteger.valueOf(l);
        } else if (v instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0) {
            n = d.toBigIntegerExact();
        } else if (v instanceof String s && INTEGER.matcher(s).matches()) {
            n = new BigInteger(s);
        }
        boolean unsigned = switch (f.getType()) {
            case UINT32, UINT64, FIXED32, FIXED64 -> true;
            default -> false;
        };
        boolean wide = f.getJavaType() == FieldDescriptor.JavaType.LONG;
        BigInteger min = unsigned ? BigInteger.ZERO : BigInteger.valueOf(wide ? Long.MIN_VALUE : Integer.MIN_VALUE);
        BigInteger max = unsigned
                ? (wide ? BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE) : BigInteger.valueOf(4_294_967_295L))
                : BigInteger.valueOf(wide ? Long.MAX_VALUE : Integer.MAX_VALUE);
        if (n == null || n.compareTo(min) < 0 || n.compareTo(max) > 0) {
            throw wrongType(node, path, "a whole number from " + min + " to " + max);
        }
    }

    private static void checkEnum(Located node, EnumDescriptor type, String path) {
        Object v = node.value();
        if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
            return;
        }
        if (v instanceof String s && type.findValueByName(s) != null) {
            return;
        }
        List<String> names = new ArrayList<>();
        for (EnumValueDescriptor e : type.getValues()) {
            names.add(e.getName());
        }
        throw wrongType(node, path, "one of " + String.join(", ", names));
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

    private static InputException wrongType(Located node, String path, String expected) {
        return new InputException(node.origin() + ": " + display(path) + ": " + Wording.describe(node.value())
                + " is the wrong type; expected " + expected);
    }

    private static InputException unknown(Located at, String path, Descriptor type, String key) {
        TreeSet<String> names = new TreeSet<>();
        for (FieldDescriptor f : type.getFields()) {
            names.add(f.getName());
        }
        String near = Wording.nearest(key, names);
        return new InputException(at.origin() + ": unknown field '" + path + "' (" + type.getFullName() + " has no field "
                + key + ")" + (near == null ? "" : "; did you mean " + near + "?")
                + (names.size() <= 30 ? " Known fields: " + String.join(", ", names) : ""));
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String display(String path) {
        return path.isEmpty() ? "(top level)" : path;
    }
}
