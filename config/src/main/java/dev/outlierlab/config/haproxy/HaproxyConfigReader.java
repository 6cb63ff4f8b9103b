package dev.outlierlab.config.haproxy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.io.TextFiles;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import dev.outlierlab.engine.haproxy.OnError;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a HAProxy backend from a haproxy.cfg: the {@code backend} (or {@code listen}) section named, or the only
 * one, its {@code server} lines with the {@code default-server} lines of the last {@code defaults} section and of
 * the backend applied before them ({@code check}, {@code observe}, {@code error-limit}, {@code on-error},
 * {@code inter}, {@code fastinter}, {@code downinter}, {@code rise}, {@code fall}; HAProxy's times in milliseconds
 * unless suffixed {@code us}, {@code ms}, {@code s}, {@code m}, {@code h}, {@code d}), and {@code option httpchk}.
 * Bounded (1 MiB); every error names the line.
 */
public final class HaproxyConfigReader {
    private static final Pattern TIME = Pattern.compile("(\\d{1,12})(us|ms|s|m|h|d)?");

    private HaproxyConfigReader() {}

    public static HaproxySettings read(Path file, String backend) {
        if (Files.isDirectory(file)) {
            throw new InputException(file + ": is a directory, expected a haproxy.cfg");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return readText(
                    BoundedLineReader.readText(in, file.toString(), 1024 * 1024, "1 MiB"),
                    file.getFileName().toString(),
                    backend);
        } catch (IOException e) {
            throw TextFiles.explain(file, "", e);
        }
    }

    /** The names of the backend and listen sections of a haproxy.cfg text, in order. */
    public static List<String> backendNames(String text, String source) {
        List<String> names = new ArrayList<>();
        String[] lines = text.split("\r?\n|\r", -1);
        for (int i = 0; i < lines.length; i++) {
            List<String> w = words(lines[i], source, i + 1);
            if (w.size() > 1 && (w.get(0).equals("backend") || w.get(0).equals("listen"))) {
                names.add(w.get(1));
            }
        }
        return names;
    }

    public static HaproxySettings readText(String text, String source, String backend) {
        String[] lines = text.split("\r?\n|\r", -1);
        List<String> defaultsServer = new ArrayList<>();
        List<String> names = new ArrayList<>();
        String section = "";
        String name = null;
        int start = 0;
        int chosenLine = 0;
        String chosenName = null;
        List<String> backendDefault = null;
        List<HaproxyServer> servers = new ArrayList<>();
        List<Integer> serverLines = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        int backups = 0;
        boolean httpCheck = false;
        boolean done = false;
        for (int i = 0; i < lines.length && !done; i++) {
            List<String> w = words(lines[i], source, i + 1);
            if (w.isEmpty()) {
                continue;
            }
            String k = w.get(0);
            if (k.equals("global")
                    || k.equals("defaults")
                    || k.equals("frontend")
                    || k.equals("backend")
                    || k.equals("listen")
                    || k.equals("resolvers")
                    || k.equals("peers")
                    || k.equals("userlist")
                    || k.equals("program")
                    || k.equals("cache")
                    || k.equals("ring")
                    || k.equals("mailers")
                    || k.equals("http-errors")) {
                if (chosenLine > 0) {
                    start = 0; // the chosen section ended; with no name given, look on for a second backend
                    done = backend != null;
                    if (!done && (k.equals("backend") || k.equals("listen"))) {
                        names.add(w.size() > 1 ? w.get(1) : "");
                        throw new InputException(source + ": several backends (" + Wording.someNames(names)
                                + "); name one with --backend NAME");
                    }
                    continue;
                }
                section = k;
                name = w.size() > 1 ? w.get(1) : null;
                if (k.equals("defaults")) {
                    defaultsServer = new ArrayList<>();
                }
                if ((k.equals("backend") || k.equals("listen")) && name != null) {
                    names.add(name);
                    if (backend == null || backend.equals(name)) {
                        chosenLine = i + 1;
                        chosenName = name;
                        backendDefault = new ArrayList<>(defaultsServer);
                        start = i + 1;
                    }
                }
                continue;
            }
            if (section.equals("defaults") && k.equals("default-server")) {
                defaultsServer.addAll(w.subList(1, w.size()));
            }
            if (chosenLine == 0 || start == 0) {
                continue;
            }
            switch (k) {
                case "default-server" -> backendDefault.addAll(w.subList(1, w.size()));
                case "option" -> httpCheck |= w.size() > 1 && w.get(1).equals("httpchk");
                case "balance" -> {
                    if (w.size() > 1
                            && !w.get(1).equals("roundrobin")
                            && !w.get(1).equals("static-rr")) {
                        notes.add(source + ":" + (i + 1) + ": balance " + w.get(1) + "; the lab models round robin");
                    }
                }
                case "server" -> {
                    if (w.size() < 3) {
                        throw new InputException(source + ":" + (i + 1) + ": server needs a name and an address");
                    }
                    List<String> params = new ArrayList<>(backendDefault);
                    params.addAll(w.subList(3, w.size()));
                    Parsed parsed = server(w.get(1), w.get(2), params, source, i + 1);
                    if (parsed.backup()) {
                        backups++;
                        notes.add(source + ":" + (i + 1) + ": " + BackupNote.of(w.get(1), w.get(2)));
                    } else {
                        servers.add(parsed.server());
                        serverLines.add(i + 1);
                    }
                }
                default -> {}
            }
        }
        if (chosenLine == 0) {
            throw new InputException(source + ": "
                    + (backend == null
                            ? "no backend or listen section"
                            : "no backend \"" + Wording.shortPrefix(backend) + "\"; the file has "
                                    + Wording.someNames(names)));
        }
        if (servers.isEmpty()) {
            throw new InputException(source + ":" + chosenLine + ": backend has no server line"
                    + (backups > 0 ? " that is not backup; the lab models the active servers" : ""));
        }
        return new HaproxySettings(
                chosenName,
                List.copyOf(servers),
                List.copyOf(serverLines),
                chosenLine,
                httpCheck,
                List.copyOf(notes),
                text);
    }

    /** A server line as read: the server, and whether it is {@code backup} (the last of backup / no-backup). */
    private record Parsed(HaproxyServer server, boolean backup) {}

    private static Parsed server(String name, String address, List<String> p, String source, int line) {
        boolean check = false;
        boolean backup = false;
        Observe observe = Observe.NONE;
        int limit = HaproxyServer.DEFAULT_ERROR_LIMIT;
        OnError onError = OnError.FAIL_CHECK;
        long inter = HaproxyServer.DEFAULT_INTER_NANOS;
        long fastinter = 0;
        long downinter = 0;
        int rise = HaproxyServer.DEFAULT_RISE;
        int fall = HaproxyServer.DEFAULT_FALL;
        for (int i = 0; i < p.size(); i++) {
            String k = p.get(i);
            switch (k) {
                case "check" -> check = true;
                case "backup" -> backup = true; // srv_parse_backup, src/server.c
                case "no-backup" -> backup = false;
                case "no-check" -> check = false;
                case "observe" -> {
                    String v = value(p, ++i, k, source, line);
                    observe = switch (v) {
                        case "layer4" -> Observe.LAYER4;
                        case "layer7" -> Observe.LAYER7;
                        case "none" -> Observe.NONE;
                        default -> throw bad(source, line, k, v, "layer4 or layer7");
                    };
                }
                case "error-limit" -> limit = number(p, ++i, k, source, line, 1_000_000);
                case "on-error" -> {
                    String v = value(p, ++i, k, source, line);
                    onError = OnError.of(v);
                    if (onError == null) {
                        throw bad(source, line, k, v, "fastinter, fail-check, sudden-death or mark-down");
                    }
                }
                case "inter" -> inter = time(p, ++i, k, source, line);
                case "fastinter" -> fastinter = time(p, ++i, k, source, line);
                case "downinter" -> downinter = time(p, ++i, k, source, line);
                case "rise" -> rise = number(p, ++i, k, source, line, 1000);
                case "fall" -> fall = number(p, ++i, k, source, line, 1000);
                case "weight",
                        "port",
                        "addr",
                        "maxconn",
                        "minconn",
                        "maxqueue",
                        "slowstart",
                        "cookie",
                        "id",
                        "resolvers",
                        "init-addr",
                        "check-sni",
                        "sni",
                        "alpn",
                        "proto",
                        "agent-port",
                        "agent-inter",
                        "agent-check",
                        "source",
                        "track",
                        "pool-max-conn",
                        "pool-purge-delay" -> {
                    if (!k.equals("agent-check")) {
                        i++;
                    }
                }
                default -> {} // flags such as disabled, ssl, send-proxy: read past
            }
        }
        try {
            return new Parsed(
                    new HaproxyServer(
                            name, address, check, observe, limit, onError, inter, fastinter, downinter, rise, fall),
                    backup);
        } catch (InvalidConfigException e) {
            throw new InputException(source + ":" + line + ": " + e.getMessage());
        }
    }

    private static String value(List<String> p, int i, String key, String source, int line) {
        if (i >= p.size()) {
            throw new InputException(source + ":" + line + ": " + key + " needs a value after it on the server line");
        }
        return p.get(i);
    }

    /** A whole number from 1 to {@code max} (the ranges of a {@code profile: haproxy} block). */
    private static int number(List<String> p, int i, String key, String source, int line, int max) {
        String v = value(p, i, key, source, line);
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // below
        }
        throw bad(source, line, key, v, "a whole number from 1 to " + max);
    }

    /** HAProxy's largest timer, in milliseconds: a longer one is "timer overflow" ({@code parse_time_err}). */
    static final long MAX_TIMER_MS = Integer.MAX_VALUE;

    /**
     * HAProxy's time: milliseconds unless suffixed, at most {@link #MAX_TIMER_MS} (as {@code parse_time_err} in
     * src/tools.c refuses a longer one with {@code PARSE_TIME_OVER}).
     */
    static long time(List<String> p, int i, String key, String source, int line) {
        String v = value(p, i, key, source, line);
        Matcher m = TIME.matcher(v);
        if (!m.matches()) {
            throw bad(source, line, key, v, "a time such as 2000, 2s or 500ms");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "ms" : m.group(2);
        long mult = switch (unit) {
            case "us" -> 1_000L;
            case "s" -> Durations.SECOND;
            case "m" -> 60 * Durations.SECOND;
            case "h" -> 3600 * Durations.SECOND;
            case "d" -> 86_400 * Durations.SECOND;
            default -> Durations.MILLISECOND;
        };
        long nanos = Durations.saturatingMultiply(n, mult);
        if (nanos > MAX_TIMER_MS * Durations.MILLISECOND) {
            throw bad(
                    source,
                    line,
                    key,
                    v,
                    "a time of at most 2147483647 ms (24d20h31m23s647ms), HAProxy's largest timer");
        }
        return nanos;
    }

    private static InputException bad(String source, int line, String key, String v, String allowed) {
        String shown = v.length() > 40 ? v.substring(0, 40) + "..." : v;
        return new InputException(source + ":" + line + ": " + key + " \"" + Wording.printable(shown)
                + "\" is not allowed; expected " + allowed);
    }

    /** A line's words: blanks separate, # starts a comment, quotes and backslashes as HAProxy 2.x reads them. */
    static List<String> words(String line, String source, int n) {
        List<String> out = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    w.append(c);
                }
                continue;
            }
            if (c == '#') {
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
            if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '\\' && i + 1 < line.length()) {
                w.append(line.charAt(++i));
            } else {
                w.append(c);
            }
        }
        if (quote != 0) {
            throw new InputException(
                    source + ":" + n + ": unmatched quote; expected the quote closed on the same line");
        }
        if (w != null) {
            out.add(w.toString());
        }
        return out;
    }
}
