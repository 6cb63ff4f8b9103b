package dev.outlierlab.config.caddy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes tuned passive health-check fields back into Caddy's JSON configuration, in the first handler
 * {@code "reverse_proxy"} (the one {@link CaddyConfigReader} reads): each field of {@code health_checks.passive}
 * ({@code fail_duration}, {@code max_fails}, {@code unhealthy_status}) has its value replaced where it is, or is added
 * at the start of that object ({@code passive} and {@code health_checks} are added when absent). Every other byte of
 * the file is left as it was.
 */
public final class CaddyJsonWriter {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CaddyJsonWriter() {}

    /** A change of the text: replace {@code [start, end)} with {@code text}. */
    private record Edit(int start, int end, String text) {}

    /**
     * The file's new text; {@code values} maps a field of {@code passive} to its JSON value as written (e.g.
     * {@code "\"30s\""}, {@code 1}, {@code [5, 429]}), in the order to add.
     */
    public static String write(String text, Map<String, String> values) {
        JsonPointer handler;
        try {
            handler = find(MAPPER.readTree(text), JsonPointer.empty(), 0);
        } catch (IOException e) {
            throw new InputException("Caddy's JSON: not valid JSON (" + e.getMessage() + ")");
        }
        if (handler == null) {
            throw new InputException("Caddy's JSON: no handler \"reverse_proxy\"");
        }
        JsonPointer checks = handler.append(JsonPointer.compile("/health_checks"));
        JsonPointer passive = checks.append(JsonPointer.compile("/passive"));
        Map<String, String> left = new LinkedHashMap<>(values);
        List<Edit> edits = new ArrayList<>();
        int[] opened = {-1, -1, -1}; // after the '{' of the handler, health_checks and passive
        boolean[] empty = {false, false, false};
        try (JsonParser p = FACTORY.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME
                        && p.getParsingContext().getParent() != null
                        && pointer(p).head().equals(passive)
                        && left.containsKey(p.currentName())) {
                    String name = p.currentName();
                    p.nextToken();
                    int start = (int) p.currentTokenLocation().getCharOffset();
                    p.skipChildren();
                    p.finishToken(); // a string is read lazily: its end is known once it is read
                    int end = (int) p.currentLocation().getCharOffset();
                    edits.add(new Edit(start, end, left.remove(name)));
                } else if (t == JsonToken.START_OBJECT) {
                    JsonPointer at = pointer(p);
                    int i = at.equals(handler) ? 0 : at.equals(checks) ? 1 : at.equals(passive) ? 2 : -1;
                    if (i >= 0) {
                        opened[i] = (int) p.currentLocation().getCharOffset();
                        empty[i] = text.substring(opened[i]).stripLeading().startsWith("}");
                    }
                }
            }
        } catch (IOException e) {
            throw new InputException("Caddy's JSON: not valid JSON (" + e.getMessage() + ")");
        }
        if (!left.isEmpty()) {
            List<String> fields = new ArrayList<>();
            left.forEach((k, v) -> fields.add("\"" + k + "\": " + v));
            String inner = String.join(", ", fields);
            if (opened[2] >= 0) {
                edits.add(new Edit(opened[2], opened[2], inner + (empty[2] ? "" : ", ")));
            } else if (opened[1] >= 0) {
                edits.add(new Edit(opened[1], opened[1], "\"passive\": {" + inner + "}" + (empty[1] ? "" : ", ")));
            } else {
                edits.add(new Edit(
                        opened[0],
                        opened[0],
                        "\"health_checks\": {\"passive\": {" + inner + "}}" + (empty[0] ? "" : ", ")));
            }
        }
        edits.sort(Comparator.comparingInt(Edit::start).reversed());
        StringBuilder out = new StringBuilder(text);
        for (Edit e : edits) {
            out.replace(e.start(), e.end(), e.text());
        }
        return out.toString();
    }

    /** Where the parser stands, as a pointer to the value it is in or at. */
    private static JsonPointer pointer(JsonParser p) {
        return p.getParsingContext().pathAsPointer();
    }

    /** The first handler {@code "reverse_proxy"} in document order, as {@link CaddyConfigReader} finds it. */
    static JsonPointer find(JsonNode n, JsonPointer at, int depth) {
        if (n == null || depth > 64) {
            return null;
        }
        if (n.isObject() && "reverse_proxy".equals(n.path("handler").asText())) {
            return at;
        }
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                JsonPointer found = find(e.getValue(), at.appendProperty(e.getKey()), depth + 1);
                if (found != null) {
                    return found;
                }
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                JsonPointer found = find(n.get(i), at.appendIndex(i), depth + 1);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
