package dev.outlierlab.config.envoy;

import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;
import io.envoyproxy.pgv.validate.Validate;
import io.envoyproxy.pgv.validate.Validate.FieldRules;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A scalar field's value as the proto3 JSON mapping takes it, for {@link ProtoShape}: {@code true} or {@code false}
 * for a bool, a whole number (or its decimal string) within the field type's range for an integer, a number (or
 * {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}) for a float or double, an enum value's name in any case
 * or its number, and no mapping or list for a string.
 */
final class ProtoScalars {
    private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");

    private ProtoScalars() {}

    /** Checks a scalar; an enum comes back with its proto name. */
    static Located check(Located node, FieldDescriptor f, String path) {
        Object v = node.value();
        switch (f.getJavaType()) {
            case BOOLEAN -> {
                if (!(v instanceof Boolean)) {
                    throw ProtoShape.wrongType(node, path, "true or false");
                }
            }
            case INT, LONG -> checkInteger(node, f, path);
            case FLOAT, DOUBLE -> {
                boolean ok = v instanceof Long
                        || v instanceof BigDecimal
                        || v instanceof String s
                                && Set.of("NaN", "Infinity", "-Infinity").contains(s);
                if (!ok) {
                    throw ProtoShape.wrongType(node, path, "a number");
                }
            }
            case ENUM -> {
                return checkEnum(node, f, path);
            }
            case STRING, BYTE_STRING -> {
                if (v instanceof Map || v instanceof List) {
                    throw ProtoShape.wrongType(node, path, "a string");
                }
            }
            default -> throw new IllegalStateException("unexpected field type " + f.getJavaType());
        }
        return node;
    }

    private static void checkInteger(Located node, FieldDescriptor f, String path) {
        Object v = node.value();
        BigInteger n = null;
        if (v instanceof Long l) {
            n = BigInteger.valueOf(l);
        } else if (v instanceof BigDecimal d && d.signum() == 0) {
            n = BigInteger.ZERO;
        } else if (v instanceof BigDecimal d
                && (long) d.precision() - d.scale() <= 40
                && d.stripTrailingZeros().scale() <= 0) {
            // compared with the range before the exact conversion: 1e100000000 has 100,000,001 digits
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
            throw ProtoShape.wrongType(node, path, "a whole number from " + min + " to " + max);
        }
    }

    /**
     * An enum by name in any case (Envoy's loader matches names case-insensitively) or by number; a number
     * that names no value is refused where Envoy's validation says {@code defined_only}.
     */
    private static Located checkEnum(Located node, FieldDescriptor f, String path) {
        EnumDescriptor type = f.getEnumType();
        Object v = node.value();
        List<String> names = new ArrayList<>();
        for (EnumValueDescriptor e : type.getValues()) {
            names.add(e.getName());
        }
        if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
            if (type.findValueByNumber(l.intValue()) == null && definedOnly(f)) {
                throw new InputException(
                        node.origin() + ": " + ProtoShape.display(path) + ": " + l + " is not a value of "
                                + type.getFullName()
                                + " (Envoy accepts only defined values here: defined_only); expected one of "
                                + String.join(", ", names) + " or its number");
            }
            return node;
        }
        if (v instanceof String s) {
            if (type.findValueByName(s) != null) {
                return node;
            }
            for (EnumValueDescriptor e : type.getValues()) {
                if (e.getName().equalsIgnoreCase(s)) {
                    return new Located(e.getName(), node.origin());
                }
            }
        }
        throw ProtoShape.wrongType(node, path, "one of " + String.join(", ", names) + " (in any case)");
    }

    private static boolean definedOnly(FieldDescriptor f) {
        FieldRules rules = f.getOptions().getExtension(Validate.rules);
        return rules.hasEnum() && rules.getEnum().getDefinedOnly();
    }
}
