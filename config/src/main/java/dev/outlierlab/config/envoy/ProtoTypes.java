package dev.outlierlab.config.envoy;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import java.lang.reflect.InvocationTargetException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Finds the message type behind an {@code @type} URL among the classes generated from Envoy's protos
 * ({@code io.envoyproxy.controlplane:api}), so that any v3 extension Envoy itself knows (transport sockets,
 * upstream HTTP protocol options, filters in a bootstrap's listeners) can be read without a hand-kept list.
 * Collects the types it resolved into the {@link JsonFormat.TypeRegistry} that the JSON parser needs for
 * {@code google.protobuf.Any}.
 */
final class ProtoTypes {
    /** The prefix every type URL in Envoy configuration carries. */
    static final String URL_PREFIX = "type.googleapis.com/";

    /** Proto packages and the Java packages generated for them, by the protos' {@code java_package} options. */
    private static final String[][] JAVA_PACKAGES = {
        {"envoy.", "io.envoyproxy.envoy."},
        {"xds.", "com.github.xds."},
        {"udpa.", "com.github.udpa.udpa."},
        {"google.protobuf.", "com.google.protobuf."},
    };

    private final Map<String, Descriptor> resolved = new LinkedHashMap<>();
    private JsonFormat.TypeRegistry registry;
    private int registrySize;

    /**
     * The descriptor for a type URL such as {@code type.googleapis.com/envoy.config.cluster.v3.Cluster}.
     *
     * @throws IllegalArgumentException with a message meant for the user when the type is unknown
     */
    Descriptor resolve(String typeUrl) {
        String name = typeUrl.substring(typeUrl.lastIndexOf('/') + 1);
        Descriptor known = resolved.get(name);
        if (known != null) {
            return known;
        }
        if (name.startsWith("envoy.api.v2.") || name.matches("envoy\\..*\\.v2(alpha)?\\..*")) {
            throw new IllegalArgumentException("@type " + typeUrl + " is a v2 API type; Envoy v1.40 reads only v3 "
                    + "types (e.g. type.googleapis.com/envoy.config.cluster.v3.Cluster)");
        }
        Descriptor d = load(name);
        if (d == null) {
            throw new IllegalArgumentException("@type " + typeUrl + " is not a type the reader knows: no message "
                    + "named " + name + " in Envoy's v3 API (check the spelling and the version suffix, e.g. .v3.)");
        }
        resolved.put(name, d);
        return d;
    }

    /** Registers a descriptor the reader uses directly (the top-level message). */
    void add(Descriptor d) {
        resolved.putIfAbsent(d.getFullName(), d);
    }

    /**
     * Every type resolved so far, for {@link JsonFormat#parser()}: built again only when a type was added since, as
     * building one walks every message of the types' files (a list of 100,000 clusters would otherwise build
     * 100,000 of them).
     */
    JsonFormat.TypeRegistry registry() {
        if (registry == null || registrySize != resolved.size()) {
            JsonFormat.TypeRegistry.Builder b = JsonFormat.TypeRegistry.newBuilder();
            resolved.values().forEach(b::add);
            registry = b.build();
            registrySize = resolved.size();
        }
        return registry;
    }

    private static Descriptor load(String protoName) {
        for (String[] mapping : JAVA_PACKAGES) {
            if (!protoName.startsWith(mapping[0])) {
                continue;
            }
            String javaName = mapping[1] + protoName.substring(mapping[0].length());
            // Nested messages are inner classes: try a.b.C, then a.b$C (for a.b.Outer.Inner -> a.b.Outer$Inner).
            for (String candidate = javaName; candidate.indexOf('.') > 0; ) {
                Descriptor d = descriptorOf(candidate, protoName);
                if (d != null) {
                    return d;
                }
                int dot = candidate.lastIndexOf('.');
                String prefix = candidate.substring(0, dot);
                if (dot + 1 >= candidate.length()
                        || !Character.isUpperCase(candidate.charAt(dot + 1))
                        || prefix.indexOf('.') < 0) {
                    break;
                }
                candidate = prefix + "$" + candidate.substring(dot + 1);
            }
        }
        return null;
    }

    private static Descriptor descriptorOf(String className, String protoName) {
        try {
            Class<?> c = Class.forName(className, false, ProtoTypes.class.getClassLoader());
            if (!Message.class.isAssignableFrom(c)) {
                return null;
            }
            Descriptor d = (Descriptor) c.getMethod("getDescriptor").invoke(null);
            return d.getFullName().equals(protoName) ? d : null;
        } catch (ClassNotFoundException
                | NoSuchMethodException
                | IllegalAccessException
                | InvocationTargetException
                | LinkageError e) {
            return null;
        }
    }
}
