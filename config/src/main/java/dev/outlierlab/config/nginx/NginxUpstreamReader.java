package dev.outlierlab.config.nginx;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds an {@code upstream} block in a whole nginx configuration ({@link NginxConfParser}, includes expanded) and
 * reads what the lab models: its {@code server} lines ({@code weight=}, {@code max_fails=}, {@code fail_timeout=},
 * {@code down}, {@code backup}; nginx's defaults 1, 1 and 10 s as in {@code ngx_http_upstream_server}), its {@code zone},
 * {@code worker_processes}, and the {@code proxy_next_upstream} / {@code proxy_next_upstream_tries} in effect in
 * the first {@code location} whose {@code proxy_pass} names the upstream (a location's own directive, else its
 * server's, else http's). Other balancing methods, {@code backup} servers and servers named by DNS are read and
 * noted; the lab models the round robin with the addresses as written.
 */
public final class NginxUpstreamReader {
    private NginxUpstreamReader() {}

    /** Reads {@code file} (and its includes) for the upstream {@code name}, or the only one when null. */
    public static NginxSettings read(Path file, String name) {
        Map<Path, String> texts = new LinkedHashMap<>();
        return of(
                NginxConfParser.parse(file, texts),
                name,
                texts,
                file.getFileName().toString());
    }

    /** Reads one configuration text (no includes), named {@code source}. */
    public static NginxSettings readText(String text, String source, String name) {
        Map<Path, String> texts = new LinkedHashMap<>();
        return of(NginxConfParser.parseText(text, Path.of(source), texts), name, texts, source);
    }

    /** The names of the upstream blocks of one configuration text (no includes), in order. */
    public static List<String> upstreamNames(String text, String source) {
        List<String> names = new ArrayList<>();
        for (ConfDirective d : NginxConfParser.parseText(text, Path.of(source), new LinkedHashMap<>())) {
            if (d.name().equals("http") && d.block() != null) {
                for (ConfDirective u : d.block()) {
                    if (u.name().equals("upstream")
                            && u.block() != null
                            && !u.args().isEmpty()) {
                        names.add(u.arg(0));
                    }
                }
            }
        }
        return names;
    }

    private static NginxSettings of(List<ConfDirective> top, String name, Map<Path, String> texts, String source) {
        List<String> notes = new ArrayList<>();
        int workers = 1;
        List<ConfDirective> https = new ArrayList<>();
        for (ConfDirective d : top) {
            if (d.name().equals("worker_processes")) {
                workers = workers(d, notes);
            } else if (d.name().equals("http") && d.block() != null) {
                https.add(d);
            }
        }
        List<ConfDirective> upstreams = new ArrayList<>();
        for (ConfDirective http : https) {
            for (ConfDirective d : http.block()) {
                if (d.name().equals("upstream") && d.block() != null) {
                    upstreams.add(d);
                }
            }
        }
        ConfDirective upstream = pick(upstreams, name, source);
        String upstreamName = upstream.arg(0);
        boolean zone = false;
        List<NginxServer> servers = new ArrayList<>();
        List<ConfDirective> lines = new ArrayList<>();
        for (ConfDirective d : upstream.block()) {
            switch (d.name()) {
                case "server" -> {
                    servers.add(server(d, notes));
                    lines.add(d);
                }
                case "zone" -> zone = true;
                case "least_conn", "hash", "ip_hash", "random" ->
                    notes.add(d.where() + ": " + d.name()
                            + " balances differently; the lab models the round robin, whose failure rules it shares");
                default -> {}
            }
        }
        if (servers.isEmpty()) {
            throw new InputException(upstream.where() + ": upstream \"" + Wording.shortPrefix(upstreamName)
                    + "\" has no server line the lab can model");
        }
        if (servers.stream().allMatch(NginxServer::backup)) {
            throw new InputException(upstream.where() + ": upstream \"" + Wording.shortPrefix(upstreamName)
                    + "\": every server line is backup; expected " + NginxUpstreamConfig.ONLY_BACKUP);
        }
        ConfDirective[] found = new ConfDirective[4];
        for (ConfDirective http : https) {
            if (walk(http, http.block(), upstreamName, null, null, null, found)) {
                break;
            }
        }
        ConfDirective location = found[0];
        ConfDirective next = found[1];
        ConfDirective tries = found[2];
        if (location == null) {
            notes.add("no location passes to upstream \"" + upstreamName + "\" (proxy_pass http://" + upstreamName
                    + "); nginx's proxy_next_upstream defaults apply");
        }
        NextUpstream nextUpstream = nextUpstream(next, tries);
        long readTimeout = found[3] == null ? DEFAULT_READ_TIMEOUT_NANOS : readTimeoutNanos(found[3]);
        try {
            NginxUpstreamConfig config =
                    new NginxUpstreamConfig(upstreamName, servers, nextUpstream, workers, zone, readTimeout);
            return new NginxSettings(
                    config,
                    List.copyOf(notes),
                    upstream,
                    List.copyOf(lines),
                    location,
                    next,
                    tries,
                    texts,
                    readTimeout);
        } catch (InvalidConfigException e) {
            throw new InputException(upstream.where() + ": " + e.getMessage());
        }
    }

    private static ConfDirective pick(List<ConfDirective> upstreams, String name, String source) {
        List<String> names = new ArrayList<>();
        for (ConfDirective u : upstreams) {
            names.add(u.arg(0));
            if (u.arg(0).equals(name)) {
                return u;
            }
        }
        if (upstreams.isEmpty()) {
            throw new InputException(
                    source + ": no upstream block in http { }; the lab reads an upstream's " + "server lines");
        }
        if (name == null && upstreams.size() == 1) {
            return upstreams.get(0);
        }
        if (name == null) {
            throw new InputException(source + ": " + upstreams.size() + " upstream blocks (" + Wording.someNames(names)
                    + "); name one with --upstream NAME");
        }
        throw new InputException(source + ": no upstream \"" + Wording.shortPrefix(name) + "\"; the file has "
                + Wording.someNames(names));
    }

    private static int workers(ConfDirective d, List<String> notes) {
        String v = d.arg(0);
        if (v.equals("auto")) {
            notes.add(d.where() + ": worker_processes auto is one worker per core; the lab assumes 2 "
                    + "(without zone each counts failures alone): set a number to match the machine");
            return 2;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= NginxUpstreamConfig.MAX_WORKERS) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // falls through
        }
        throw new InputException(d.where() + ": worker_processes \"" + Wording.printable(shortText(v))
                + "\" is not allowed; expected auto or a whole number from 1 to " + NginxUpstreamConfig.MAX_WORKERS);
    }

    private static NginxServer server(ConfDirective d, List<String> notes) {
        if (d.args().isEmpty()) {
            throw new InputException(d.where() + ": server needs an address");
        }
        String address = d.arg(0);
        int weight = 1;
        int maxFails = NginxServer.DEFAULT_MAX_FAILS;
        long failTimeout = NginxServer.DEFAULT_FAIL_TIMEOUT_SECONDS;
        boolean down = false;
        boolean backup = false;
        for (String a : d.args().subList(1, d.args().size())) {
            if (a.startsWith("weight=")) {
                weight = number(d, "weight", a.substring(7), 1, MAX_COUNT);
            } else if (a.startsWith("max_fails=")) {
                maxFails = number(d, "max_fails", a.substring(10), 0, MAX_COUNT);
            } else if (a.startsWith("fail_timeout=")) {
                failTimeout = seconds(d, a.substring(13));
            } else if (a.equals("down")) {
                down = true;
            } else if (a.equals("backup")) {
                backup = true;
            } else if (!a.startsWith("max_conns=")
                    && !a.equals("resolve")
                    && !a.startsWith("slow_start=")
                    && !a.startsWith("route=")
                    && !a.startsWith("service=")) {
                throw new InputException(d.where() + ": server parameter \"" + Wording.printable(shortText(a))
                        + "\" is not allowed; expected weight=, max_fails=, fail_timeout=, max_conns=, backup, down");
            }
        }
        if (address.startsWith("unix:")) {
            notes.add(d.where() + ": " + address + " is a socket; the lab names the host by it as written");
        }
        try {
            return new NginxServer(address, weight, maxFails, failTimeout, down, backup);
        } catch (InvalidConfigException e) {
            throw new InputException(d.where() + ": " + e.getMessage());
        }
    }

    /** The most {@code weight=} and {@code max_fails=} the lab takes, as in a {@code profile: nginx} block. */
    static final int MAX_COUNT = 1_000_000;

    private static int number(ConfDirective d, String key, String v, int min, int max) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // falls through
        }
        throw new InputException(d.where() + ": " + key + "=" + Wording.printable(shortText(v))
                + " is not allowed; expected a whole number from " + min + " to " + max);
    }

    /** A server's {@code fail_timeout=} in whole seconds ({@link NginxTime}, no milliseconds), at most a year. */
    static long seconds(ConfDirective d, String v) {
        long nanos = NginxTime.nanos(v, false, NginxServer.MAX_FAIL_TIMEOUT_SECONDS * 1_000_000_000L);
        if (nanos < 0) {
            throw new InputException(d.where() + ": fail_timeout=" + Wording.printable(shortText(v))
                    + " is not allowed; expected whole seconds such as 10, 10s, 1m or 1m30s (no ms; units y M w d h m s"
                    + " in that order, each once), at most a year");
        }
        return nanos / 1_000_000_000L;
    }

    private static String shortText(String v) {
        return v.length() > 40 ? v.substring(0, 40) + "..." : v;
    }

    /**
     * Depth first: the first block (location, server, if) with a {@code proxy_pass} to the upstream, and the
     * {@code proxy_next_upstream} and {@code proxy_next_upstream_tries} in effect there (its own, else inherited).
     */
    private static boolean walk(
            ConfDirective owner,
            List<ConfDirective> block,
            String upstream,
            ConfDirective next,
            ConfDirective tries,
            ConfDirective read,
            ConfDirective[] found) {
        for (ConfDirective d : block) {
            if (d.name().equals("proxy_next_upstream")) {
                next = d;
            } else if (d.name().equals("proxy_next_upstream_tries")) {
                tries = d;
            } else if (d.name().equals("proxy_read_timeout")) {
                read = d;
            }
        }
        for (ConfDirective d : block) {
            if (d.name().equals("proxy_pass") && passesTo(d.arg(0), upstream)) {
                found[0] = owner;
                found[1] = next;
                found[2] = tries;
                found[3] = read;
                return true;
            }
        }
        for (ConfDirective d : block) {
            if (d.block() != null
                    && (d.name().equals("server")
                            || d.name().equals("location")
                            || d.name().equals("if"))
                    && walk(d, d.block(), upstream, next, tries, read, found)) {
                return true;
            }
        }
        return false;
    }

    private static boolean passesTo(String target, String upstream) {
        String t = target.replaceFirst("^https?://", "");
        int slash = t.indexOf('/');
        if (slash >= 0) {
            t = t.substring(0, slash);
        }
        return t.equals(upstream);
    }

    /** nginx's {@code proxy_read_timeout} when none is set: 60 s ({@code ngx_http_proxy_merge_loc_conf}). */
    public static final long DEFAULT_READ_TIMEOUT_NANOS = NginxUpstreamConfig.DEFAULT_READ_TIMEOUT_NANOS;

    private static final long MAX_MSEC_NANOS = NginxUpstreamConfig.MAX_READ_TIMEOUT_NANOS;

    /**
     * {@code proxy_read_timeout}'s value in nanoseconds ({@link NginxTime}, milliseconds allowed), at most nginx's
     * limit for a time in milliseconds, 2147483647 ms ({@code ngx_parse_time}: larger is {@code NGX_PARSE_LARGE_TIME}).
     */
    static long readTimeoutNanos(ConfDirective d) {
        String v = d.args().isEmpty() ? "" : d.arg(0);
        long total = NginxTime.nanos(v, true, MAX_MSEC_NANOS);
        if (total < 0) {
            throw new InputException(d.where() + ": proxy_read_timeout \"" + Wording.printable(shortText(v))
                    + "\" is not allowed; expected a time such as 60s, 500ms or 1m30s (units y M w d h m s ms"
                    + " in that order, each once), at most 24d20h31m23s647ms, as nginx's msec values");
        }
        return total;
    }

    private static NextUpstream nextUpstream(ConfDirective next, ConfDirective tries) {
        NextUpstream d = NextUpstream.defaults();
        int mask = d.mask();
        int n = d.tries();
        if (next != null) {
            try {
                mask = NextUpstream.parseWords(next.args());
            } catch (InvalidConfigException e) {
                throw new InputException(next.where() + ": " + e.getMessage());
            }
        }
        if (tries != null) {
            try {
                n = Integer.parseInt(tries.arg(0));
                if (n < 0) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new InputException(tries.where() + ": proxy_next_upstream_tries \""
                        + Wording.printable(shortText(tries.arg(0)))
                        + "\" is not allowed; expected a whole number of 0 "
                        + "or more (0: as many as there are servers)");
            }
        }
        return new NextUpstream(mask, n);
    }
}
