package dev.outlierlab.config.caddy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.Durations;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of one {@code reverse_proxy} handler of Caddy's JSON, each read as the type Caddy's own structs give it
 * ({@code modules/caddyhttp/reverseproxy}: {@code max_fails} and {@code retries} are Go {@code int}s, the durations
 * {@code caddy.Duration}, whose {@code UnmarshalJSON} takes a duration string or whole nanoseconds,
 * {@code unhealthy_status} a list of {@code int}s, an upstream's {@code dial} a string). Anything else (a number
 * past an {@code int}, a fraction, text where a number goes, a mapping) is refused with the field's path in the
 * handler, a short prefix of the value, its line in the file and what is allowed, never read as 0 or cut to 32
 * bits.
 */
final class CaddyJsonFields {
    private static final JsonFactory FACTORY = new JsonFactory();

    private final String text;
    private final String source;
    private final JsonPointer handler;
    private final JsonNode node;

    CaddyJsonFields(String text, String source, JsonPointer handler, JsonNode node) {
        this.text = text;
        this.source = source;
        this.handler = handler;
        this.node = node;
    }

    /** The line of the handler's opening brace. */
    int line() {
        return line(handler);
    }

    /** The value at {@code path} under the handler, e.g. {@code /health_checks/passive/max_fails}; null if absent. */
    private JsonNode at(String path) {
        JsonNode n = node.at(path);
        return n.isMissingNode() || n.isNull() ? null : n;
    }

    /** A whole number from 0 to {@code max}, or 0 when absent. */
    int integer(String path, int max) {
        JsonNode n = at(path);
        if (n == null) {
            return 0;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0 || n.asLong() > max) {
            throw bad(path, n, "a whole number from 0 to " + max);
        }
        return n.asInt();
    }

    /** A duration: a Go duration string, or whole nanoseconds; 0 when absent. */
    long duration(String path) {
        JsonNode n = at(path);
        if (n == null) {
            return 0;
        }
        String allowed = "a duration such as \"30s\", \"500ms\" or \"1m\", or whole nanoseconds, from 0 to "
                + Durations.format(Durations.MAX_NANOS);
        if (n.isTextual()) {
            try {
                return CaddyConfigReader.duration(n.asText(), source, 0, path);
            } catch (InputException e) {
                throw bad(path, n, allowed);
            }
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0 || n.asLong() > Durations.MAX_NANOS) {
            throw bad(path, n, allowed);
        }
        return n.asLong();
    }

    /** {@code unhealthy_status}: statuses from 100 to 599, or 1 to 5 for a class ({@code 5} is {@code 5xx}). */
    List<Integer> statuses(String path) {
        List<Integer> out = new ArrayList<>();
        JsonNode list = at(path);
        if (list == null) {
            return out;
        }
        if (!list.isArray()) {
            throw bad(path, list, "a list of statuses such as [503] or classes such as [5]");
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode s = list.get(i);
            int v = s.isIntegralNumber() && s.canConvertToInt() ? s.asInt() : 0;
            if (!(v >= 1 && v <= 5) && !(v >= 100 && v <= 599)) {
                throw bad(path + "/" + i, s, "a status from 100 to 599, or 1 to 5 for a class (5 is 5xx)");
            }
            out.add(v);
        }
        return out;
    }

    /** The upstreams' {@code dial} addresses, in order. */
    List<String> dials() {
        List<String> out = new ArrayList<>();
        JsonNode list = at("/upstreams");
        if (list == null) {
            return out;
        }
        if (!list.isArray()) {
            throw bad("/upstreams", list, "a list of upstreams such as [{\"dial\": \"10.0.0.1:8080\"}]");
        }
        for (int i = 0; i < list.size(); i++) {
            String path = "/upstreams/" + i + "/dial";
            JsonNode dial = list.get(i).path("dial");
            if (!dial.isTextual() || dial.asText().isBlank()) {
                throw bad(path, dial.isMissingNode() ? null : dial, "an address such as \"10.0.0.1:8080\"");
            }
            out.add(dial.asText());
        }
        return out;
    }

    private InputException bad(String path, JsonNode value, String allowed) {
        String key = "reverse_proxy "
                + path.substring(1).replaceAll("/(\\d+)", "[$1]").replace('/', '.');
        String shown = value == null ? "missing" : Wording.shortPrefix(value.toString()) + " is not allowed";
        return new InputException(source + ":" + line(handler.append(JsonPointer.compile(path))) + ": " + key + ": "
                + shown + "; expected " + allowed);
    }

    /** The line of the value at {@code target}, or of its nearest enclosing value when it is absent. */
    private int line(JsonPointer target) {
        String want = target.toString();
        int best = 1;
        try (JsonParser p = FACTORY.createParser(text)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME || t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    continue;
                }
                String at = p.getParsingContext().pathAsPointer().toString();
                if (want.equals(at)) {
                    return p.currentTokenLocation().getLineNr();
                }
                if (want.startsWith(at + "/")) {
                    best = p.currentTokenLocation().getLineNr();
                } else if (t.isStructStart()) {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            // the text was parsed whole before; the line of the handler is the best left
        }
        return best;
    }
}
