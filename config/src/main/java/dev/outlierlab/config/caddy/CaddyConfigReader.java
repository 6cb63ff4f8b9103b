package dev.outlierlab.config.caddy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.io.TextFiles;
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
 * {@code unhealthy_status}, {@code unhealthy_latency}, and {@code response_header_timeout} in its
 * {@code transport http} block) or of Caddy's JSON (the first handler {@code "handler": "reverse_proxy"}:
 * {@code upstreams[].dial}, {@code load_balancing}, {@code health_checks.passive} and the http transport's
 * {@code response_header_timeout}; durations as Go duration strings or integer nanoseconds). A file starting with
 * {@code {"} is JSON. Bounded (1 MiB); Caddyfile errors name the line.
 */
public final class CaddyConfigReader {
    private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h|d)");

    /** The most {@code max_fails} and {@code lb_retries} the lab takes, as in a {@code profile: caddy} block. */
    static final int MAX_FAILS = 1_000_000;

    static final int MAX_RETRIES = 1000;

    private CaddyConfigReader() {}

    public static CaddySettings read(Path file) {
        if (Files.isDirectory(file)) {
            throw new InputException(file + ": is a directory, expected a Caddyfile or Caddy's JSON");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return readText(
                    BoundedLineReader.readText(in, file.toString(), 1024 * 1024, "1 MiB"),
                    file.getFileName().toString());
        } catch (IOException e) {
            throw TextFiles.explain(file, "", e);
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
        CaddyfileTokens.checkClosed(text, source);
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
        long headerTimeout = 0;
        CaddySelection.Policy policy = CaddySelection.Policy.RANDOM;
        boolean activeNoted = false;
        boolean inHttpTransport = false; // inside reverse_proxy's transport http { }
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
                    inHttpTransport = inHttpTransport && depth > 1;
                    continue;
                }
                if (w.get(w.size() - 1).equals("{")) {
                    depth++;
                    if (depth == 2) {
                        inHttpTransport = w.size() == 3
                                && w.get(0).equals("transport")
                                && w.get(1).equals("http");
                    }
                }
                if (depth == 2 && inHttpTransport && w.get(0).equals("response_header_timeout")) {
                    headerTimeout = duration(w.size() > 1 ? w.get(1) : "", source, n, w.get(0));
                    continue;
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
                            notes.add(source + ":" + n + ": " + CaddyNotModelled.policy(v));
                            policy = CaddySelection.Policy.RANDOM;
                        }
                    }
                    case "unhealthy_request_count" ->
                        notes.add(source + ":" + n + ": " + CaddyNotModelled.requestCount(v));
                    case "lb_try_duration" -> tryDuration = duration(v, source, n, w.get(0));
                    case "lb_try_interval" -> tryInterval = duration(v, source, n, w.get(0));
                    case "lb_retries" -> retries = number(v, source, n, w.get(0), MAX_RETRIES);
                    case "fail_duration" -> failDuration = duration(v, source, n, w.get(0));
                    case "max_fails" -> maxFails = number(v, source, n, w.get(0), MAX_FAILS);
                    case "unhealthy_latency" -> latency = duration(v, source, n, w.get(0));
                    case "unhealthy_status" -> {
                        for (String s : w.subList(1, w.size())) {
                            statuses.add(status(s, source, n));
                        }
                    }
                    default -> {
                        if (w.get(0).startsWith("health_") && !activeNoted) {
                            activeNoted = true;
                            notes.add(source + ":" + n + ": " + CaddyNotModelled.activeChecks(w.get(0)));
                        }
                    }
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
                        headerTimeout,
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
            long headerTimeout,
            String where) {
        if (upstreams.isEmpty()) {
            throw new InputException(where + ": reverse_proxy has no upstream");
        }
        try {
            return new CaddyPassiveConfig(
                    upstreams,
                    failDuration,
                    maxFails,
                    statuses,
                    latency,
                    tryDuration,
                    tryInterval,
                    retries,
                    policy,
                    headerTimeout);
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
            root = new ObjectMapper()
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(text);
        } catch (JsonProcessingException e) {
            // Jackson's own limits (nesting deeper than 1000, say) come without a location
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            String why = e instanceof StreamConstraintsException
                    ? "nested deeper than the 1000 levels the lab reads"
                    : Wording.shortPrefix(e.getOriginalMessage());
            throw new InputException(source + (line > 0 ? ":" + line : "") + ": not valid JSON (" + why
                    + "); expected Caddy's JSON configuration");
        }
        JsonPointer at = CaddyJsonWriter.find(root, JsonPointer.empty(), 0);
        if (at == null) {
            throw new InputException(source + ": no handler \"reverse_proxy\" in the JSON configuration");
        }
        JsonNode h = root.at(at);
        CaddyJsonFields f = new CaddyJsonFields(text, source, at, h);
        String policyWord =
                h.path("load_balancing").path("selection_policy").path("policy").asText("random");
        CaddySelection.Policy policy = CaddySelection.Policy.of(policyWord);
        List<String> notes = new ArrayList<>();
        String where = source + ":" + f.line() + ": ";
        if (policy == null) {
            notes.add(where + CaddyNotModelled.policy(policyWord));
        }
        if (!h.path("health_checks").path("active").isMissingNode()) {
            notes.add(where + CaddyNotModelled.activeChecks("health_checks.active"));
        }
        JsonNode requests = h.path("health_checks").path("passive").path("unhealthy_request_count");
        if (!requests.isMissingNode()) {
            notes.add(where + CaddyNotModelled.requestCount(requests.asText()));
        }
        String passive = "/health_checks/passive/";
        // the http transport's (the default one when transport is absent); another protocol's is not read
        String protocol = h.path("transport").path("protocol").asText("http");
        return new CaddySettings(
                config(
                        f.dials(),
                        f.duration(passive + "fail_duration"),
                        f.integer(passive + "max_fails", MAX_FAILS),
                        f.statuses(passive + "unhealthy_status"),
                        f.duration(passive + "unhealthy_latency"),
                        f.duration("/load_balancing/try_duration"),
                        f.duration("/load_balancing/try_interval"),
                        f.integer("/load_balancing/retries", MAX_RETRIES),
                        policy == null ? CaddySelection.Policy.RANDOM : policy,
                        protocol.equals("http") ? f.duration("/transport/response_header_timeout") : 0,
                        source + ":" + f.line()),
                f.line(),
                true,
                List.copyOf(notes));
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
            long part = Math.round(n * unit);
            // each part and the sum kept within the limit, so no run of parts can wrap around
            total = part > Durations.MAX_NANOS || total > Durations.MAX_NANOS - part ? Long.MAX_VALUE : total + part;
            at = m.end();
            if (total == Long.MAX_VALUE) {
                break;
            }
        }
        if (v.isEmpty() || at != v.length() || total > Durations.MAX_NANOS) {
            String shown = v.length() > 40 ? v.substring(0, 40) + "..." : v;
            throw new InputException(source + (line > 0 ? ":" + line : "") + ": " + key + " \""
                    + Wording.printable(shown) + "\" is not allowed; expected a duration such as 30s, 500ms or 1m, at"
                    + " most " + Durations.format(Durations.MAX_NANOS));
        }
        return total;
    }

    private static int number(String v, String source, int line, String key, int max) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 0 && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw new InputException(source + ":" + line + ": " + key + " \"" + Wording.shortPrefix(v)
                + "\" is not allowed; expected a whole number from 0 to " + max);
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
