package dev.outlierlab.config.caddy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the first {@code reverse_proxy} of a Caddyfile (its upstreams, {@code to}, {@code lb_policy},
 * {@code lb_try_duration}, {@code lb_try_interval}, {@code lb_retries}, {@code fail_duration}, {@code max_fails},
 * {@code unhealthy_status}, {@code unhealthy_latency}) or of Caddy's JSON (the first handler
 * {@code "handler": "reverse_proxy"}: {@code upstreams[].dial}, {@code load_balancing} and
 * {@code health_checks.passive}; durations as Go duration strings or integer nanoseconds). A file starting with
 * {@code {"} is JSON. Bounded (1 MiB); Caddyfile errors name the line.
 */
public final class CaddyConfigReader {
    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h|d)");

    private CaddyConfigReader() {}

    public static CaddySettings read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return readText(
                    BoundedLineReader.readText(in, file.toString(), 1024 * 1024, "1 MiB"),
                    file.getFileName().toString());
        } catch (IOException e) {
            throw new InputException(file + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    public static CaddySettings readText(String text, String source) {
        String t = text.strip();
        if (t.startsWith("{\"") || t.startsWith("{\n  \"") || t.startsWith("{ \"")) {
            return json(text, source);
        }
        return caddyfile(text, source);
    }

    private static CaddySettings caddyfile(String text, String source) {
        String[] lines = text.split("\r?\n|\r", -1);
        int at = -1;
        List<String> upstreams = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            List<String> w = words(lines[i]);
            if (!w.isEmpty() && w.get(0).equals("reverse_proxy")) {
                at = i;
                for (String a : w.subList(1, w.size())) {
                    if (!a.equals("{") && !a.startsWith("/") && !a.startsWith("@") && !a.equals("*")) {
                        upstreams.add(dial(a));
                    }
                }
                break;
            }
        }
        if (at < 0) {
            throw new InputException(source + ": no reverse_proxy directive");
        }
        long failDuration = 0;
        int maxFails = 0;
        List<Integer> statuses = new ArrayList<>();
        long latency = 0;
        long tryDuration = 0;
        long tryInterval = 0;
        int retries = 0;
        CaddySelection.Policy policy = CaddySelection.Policy.RANDOM;
        List<String> notes = new ArrayList<>();
        if (words(lines[at]).contains("{")) {
            int depth = 1;
            for (int i = at + 1; i < lines.length && depth > 0; i++) {
                List<String> w = words(lines[i]);
                if (w.isEmpty()) {
                    continue;
                }
                int n = i + 1;
                if (w.get(0).equals("}")) {
                    depth--;
                    continue;
                }
                if (w.get(w.size() - 1).equals("{")) {
                    depth++;
                }
                if (depth > 1 && !w.get(w.size() - 1).equals("{")) {
                    continue; // inside transport { } and other blocks
                }
                String v = w.size() > 1 ? w.get(1) : "";
                switch (w.get(0)) {
                    case "to" -> w.subList(1, w.size()).forEach(a -> upstreams.add(dial(a)));
                    case "lb_policy" -> {
                        policy = CaddySelection.Policy.of(v);
                        if (policy == null) {
                            notes.add(source + ":" + n + ": lb_policy " + v + "; the lab models random, first and "
                                    + "round_robin, and uses random");
                            policy = CaddySelection.Policy.RANDOM;
                        }
                    }
                    case "lb_try_duration" -> tryDuration = duration(v, source, n, w.get(0));
                    case "lb_try_interval" -> tryInterval = duration(v, source, n, w.get(0));
                    case "lb_retries" -> retries = number(v, source, n, w.get(0));
                    case "fail_duration" -> failDuration = duration(v, source, n, w.get(0));
                    case "max_fails" -> maxFails = number(v, source, n, w.get(0));
                    case "unhealthy_latency" -> latency = duration(v, source, n, w.get(0));
                    case "unhealthy_status" -> {
                        for (String s : w.subList(1, w.size())) {
                            statuses.add(status(s, source, n));
                        }
                    }
                    default -> {}
                }
            }
        }
        return new CaddySettings(
                config(
                        upstreams,
                        failDuration,
                        maxFails,
                        statuses,
                        latency,
                        tryDuration,
                        tryInterval,
                        retries,
                        policy,
                        source + ":" + (at + 1)),
                at + 1,
                false,
                List.copyOf(notes));
    }

    private static CaddyPassiveConfig config(
            List<String> upstreams,
            long failDuration,
            int maxFails,
            List<Integer> statuses,
            long latency,
            long tryDuration,
            long tryInterval,
            int retries,
            CaddySelection.Policy policy,
            String where) {
        if (upstreams.isEmpty()) {
            throw new InputException(where + ": reverse_proxy has no upstream");
        }
        try {
            return new CaddyPassiveConfig(
                    upstreams, failDuration, maxFails, statuses, latency, tryDuration, tryInterval, retries, policy);
        } catch (InvalidConfigException e) {
            throw new InputException(where + ": " + e.getMessage());
        }
    }

    private static String dial(String address) {
        return address.replaceFirst("^https?://", "");
    }

    private static CaddySettings json(String text, String source) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new InputException(
                    source + ":" + e.getLocation().getLineNr() + ": not valid JSON (" + e.getOriginalMessage() + ")");
        }
        JsonNode h = findHandler(root, 0);
        if (h == null) {
            throw new InputException(source + ": no handler \"reverse_proxy\" in the JSON configuration");
        }
        List<String> upstreams = new ArrayList<>();
        for (JsonNode u : h.path("upstreams")) {
            upstreams.add(u.path("dial").asText());
        }
        JsonNode lb = h.path("load_balancing");
        JsonNode passive = h.path("health_checks").path("passive");
        List<Integer> statuses = new ArrayList<>();
        for (JsonNode s : passive.path("unhealthy_status")) {
            statuses.add(s.asInt());
        }
        CaddySelection.Policy policy = CaddySelection.Policy.of(
                lb.path("selection_policy").path("policy").asText("random"));
        return new CaddySettings(
                config(
                        upstreams,
                        jsonDuration(passive.get("fail_duration"), source),
                        passive.path("max_fails").asInt(0),
                        statuses,
                        jsonDuration(passive.get("unhealthy_latency"), source),
                        jsonDuration(lb.get("try_duration"), source),
                        jsonDuration(lb.get("try_interval"), source),
                        lb.path("retries").asInt(0),
                        policy == null ? CaddySelection.Policy.RANDOM : policy,
                        source),
                0,
                true,
                List.of());
    }

    private static JsonNode findHandler(JsonNode n, int depth) {
        if (n == null || depth > 64) {
            return null;
        }
        if (n.isObject() && "reverse_proxy".equals(n.path("handler").asText())) {
            return n;
        }
        for (JsonNode child : n) {
            JsonNode found = findHandler(child, depth + 1);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static long jsonDuration(JsonNode n, String source) {
        if (n == null || n.isNull()) {
            return 0;
        }
        if (n.isNumber()) {
            return n.asLong();
        }
        return duration(n.asText(), source, 0, "duration");
    }

    /** A Go duration as Caddy reads it (plus {@code d} for days): 1s, 500ms, 1m30s, 1.5s. */
    static long duration(String v, String source, int line, String key) {
        Matcher m = GO_DURATION.matcher(v);
        long total = 0;
        int at = 0;
        while (at < v.length() && m.find(at) && m.start() == at) {
            double n = Double.parseDouble(m.group(1));
            long unit = switch (m.group(2)) {
                case "ns" -> 1;
                case "us", "µs" -> 1_000;
                case "ms" -> Durations.MILLISECOND;
                case "m" -> 60 * Durations.SECOND;
                case "h" -> 3600 * Durations.SECOND;
                case "d" -> 86_400 * Durations.SECOND;
                default -> Durations.SECOND;
            };
            total += Math.round(n * unit);
            at = m.end();
        }
        if (v.isEmpty() || at != v.length() || total > Durations.MAX_NANOS) {
            String shown = v.length() > 40 ? v.substring(0, 40) + "..." : v;
            throw new InputException(source + (line > 0 ? ":" + line : "") + ": " + key + " \""
                    + Wording.printable(shown) + "\" is not allowed; expected a duration such as 30s, 500ms or 1m");
        }
        return total;
    }

    private static int number(String v, String source, int line, String key) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new InputException(source + ":" + line + ": " + key + " \"" + Wording.printable(v)
                + "\" is not allowed; expected a whole number of 0 or more");
    }

    private static int status(String v, String source, int line) {
        if (v.length() == 3 && v.endsWith("xx") && v.charAt(0) >= '1' && v.charAt(0) <= '5') {
            return v.charAt(0) - '0';
        }
        try {
            int s = Integer.parseInt(v);
            if (s >= 100 && s <= 599) {
                return s;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new InputException(source + ":" + line + ": unhealthy_status \"" + Wording.printable(v)
                + "\" is not allowed; expected statuses such as 503 or classes such as 5xx");
    }

    /** A Caddyfile line's tokens: blanks separate, # starts a comment, double quotes group. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder w = null;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    quoted = false;
                } else {
                    w.append(c);
                }
                continue;
            }
            if (c == '#' && w == null) {
                break;
            }
            if (Character.isWhitespace(c)) {
                if (w != null) {
                    out.add(w.toString());
                    w = null;
                }
                continue;
            }
            if (w == null) {
                w = new StringBuilder();
            }
            if (c == '"') {
                quoted = true;
            } else {
                w.append(c);
            }
        }
        if (w != null) {
            out.add(w.toString());
        }
        return out;
    }
}
