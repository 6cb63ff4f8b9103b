package dev.outlierlab.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * The one JSON convention of every command's output: an object whose first key is {@code schema}, naming the
 * command's document and its version ({@code outlier-lab.run.v1}); numbers as numbers; the same summary keys
 * for every profile. The JSON Schema of each document is {@code docs/schema/COMMAND.v1.schema.json}.
 */
public final class JsonDocument {
    /** The version of every document's layout; a field may be added within a version, none renamed or removed. */
    public static final int VERSION = 1;

    private static final Pattern WHOLE = Pattern.compile("-?\\d{1,18}");
    private static final Pattern DECIMAL = Pattern.compile("-?\\d+\\.\\d+");

    private JsonDocument() {}

    /** The schema name of a command's document, e.g. {@code outlier-lab.sweep.v1}. */
    public static String schema(String command) {
        return "outlier-lab." + command + ".v" + VERSION;
    }

    /** A new document for the command, its {@code schema} key first. */
    public static ObjectNode start(String command) {
        return start(command, VERSION);
    }

    /**
     * A new document for a command whose layout has changed since {@link #VERSION} (a field renamed or removed):
     * {@code outlier-lab.COMMAND.vN}, described by {@code docs/schema/COMMAND.vN.schema.json}.
     */
    public static ObjectNode start(String command, int version) {
        ObjectNode root = ResultJson.mapper().createObjectNode();
        root.put("schema", "outlier-lab." + command + ".v" + version);
        return root;
    }

    /** A value the user typed ({@code --vary} or {@code --set}), as a JSON number or boolean where it is one. */
    public static void putTyped(ObjectNode node, String key, String value) {
        String v = value.strip();
        if (WHOLE.matcher(v).matches()) {
            node.put(key, Long.parseLong(v));
        } else if (DECIMAL.matcher(v).matches() && v.length() <= 30) {
            node.put(key, new BigDecimal(v));
        } else if (v.equals("true") || v.equals("false")) {
            node.put(key, Boolean.parseBoolean(v));
        } else {
            node.put(key, value);
        }
    }
}
