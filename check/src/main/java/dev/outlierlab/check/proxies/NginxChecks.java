package dev.outlierlab.check.proxies;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.ServerRule;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.nginx.ConfDirective;
import dev.outlierlab.config.nginx.NginxSettings;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code check}'s findings for an nginx upstream: each surprise of nginx's passive checks that the configuration
 * runs into, with where and a fix in nginx's own syntax.
 */
public final class NginxChecks {
    private static final int[] STATUSES = {
        NextUpstream.HTTP_500, NextUpstream.HTTP_502, NextUpstream.HTTP_503, NextUpstream.HTTP_504
    };
    private static final String[] STATUS_WORDS = {"http_500", "http_502", "http_503", "http_504"};

    private NginxChecks() {}

    /** The findings for the upstream read from a configuration. */
    public static List<Finding> forUpstream(NginxSettings settings) {
        NginxUpstreamConfig c = settings.config();
        String target = "upstream " + c.name();
        List<Finding> out = new ArrayList<>();
        ConfDirective up = settings.upstream();
        ConfDirective nextAt = settings.nextUpstream() != null ? settings.nextUpstream() : settings.location();
        String nextFile = file(nextAt != null ? nextAt : up);
        int nextLine = nextAt != null ? nextAt.line() : up.line();
        NextUpstream next = c.nextUpstream();
        List<String> unlisted = new ArrayList<>();
        for (int i = 0; i < STATUSES.length; i++) {
            if (!next.lists(STATUSES[i])) {
                unlisted.add(STATUS_WORDS[i]);
            }
        }
        // one primary and no backup: ngx_http_upstream_init_round_robin sets peers->single, cleared by a backup
        boolean single = c.single();
        if (single) {
            out.add(finding(
                    ServerRule.NGINX_SINGLE_SERVER,
                    Severity.WARNING,
                    target,
                    "one server (" + c.servers().get(0).name()
                            + "): nginx never counts its failures or takes it out, so max_fails and fail_timeout do "
                            + "nothing and every failure reaches the client",
                    Map.of("servers", 1L),
                    "# add servers, or accept that failures reach clients:\nupstream " + c.name() + " {\n    server "
                            + c.servers().get(0).name() + ";\n    server 10.0.0.2:8080;   # a second server\n}",
                    file(up),
                    up.line()));
        }
        if (!single && !unlisted.isEmpty() && (next.mask() & NextUpstream.OFF) == 0) {
            List<String> words = new ArrayList<>(next.words());
            words.addAll(unlisted);
            out.add(finding(
                    ServerRule.NGINX_5XX_NOT_COUNTED,
                    Severity.WARNING,
                    target,
                    "proxy_next_upstream does not list "
                            + String.join(", ", unlisted)
                            + ": a server answering those is never taken out, and each such "
                            + "response goes to the client",
                    Map.of("unlisted", String.join(" ", unlisted)),
                    "proxy_next_upstream " + String.join(" ", words) + ";",
                    nextFile,
                    nextLine));
        }
        boolean anyListed = unlisted.size() < STATUSES.length;
        if (!single && anyListed && next.initialTries(upCount(c)) > 1) {
            out.add(finding(
                    ServerRule.NGINX_RETRY_HIDES_FAILURES,
                    Severity.NOTE,
                    target,
                    "listed statuses are retried on "
                            + "another server, so clients do not see a failing server while a try is left; a status on the last "
                            + "try is passed on and not counted",
                    Map.of("tries", (long) next.initialTries(upCount(c))),
                    null,
                    nextFile,
                    nextLine));
        }
        if (!single && next.initialTries(upCount(c)) == 1) {
            out.add(finding(
                    ServerRule.NGINX_ONE_TRY,
                    Severity.WARNING,
                    target,
                    "one try per request: a listed status is "
                            + "always on the last try and never counts; only errors and timeouts take a server out",
                    Map.of("tries", 1L),
                    "proxy_next_upstream_tries 2;",
                    nextFile,
                    nextLine));
        }
        for (int i = 0; i < c.servers().size() && !single; i++) {
            NginxServer s = c.servers().get(i);
            ConfDirective line = settings.serverLines().get(i);
            if (s.maxFails() == 0) {
                out.add(finding(
                        ServerRule.NGINX_MAX_FAILS_ZERO,
                        Severity.NOTE,
                        target,
                        s.name() + ": max_fails=0, never " + "taken out",
                        Map.of("server", s.name()),
                        "server " + s.name() + " max_fails=1 fail_timeout=" + s.failTimeoutSeconds() + "s;",
                        file(line),
                        line.line()));
            } else if (s.maxFails() > 1) {
                out.add(finding(
                        ServerRule.NGINX_MAX_FAILS_NOT_CONSECUTIVE,
                        Severity.NOTE,
                        target,
                        s.name() + ": max_fails="
                                + s.maxFails() + " counts failures less than fail_timeout (" + s.failTimeoutSeconds()
                                + " s) "
                                + "apart, whatever succeeds between them; it is out for " + s.failTimeoutSeconds()
                                + " to "
                                + (s.failTimeoutSeconds() + 1) + " s, then one probe request goes",
                        ordered(
                                "server",
                                s.name(),
                                "max_fails",
                                (long) s.maxFails(),
                                "fail_timeout_s",
                                s.failTimeoutSeconds()),
                        null,
                        file(line),
                        line.line()));
            }
        }
        if (!single && c.workers() > 1 && !c.zone()) {
            out.add(finding(
                    ServerRule.NGINX_PER_WORKER_COUNTS,
                    Severity.WARNING,
                    target,
                    c.workers() + " worker processes "
                            + "and no zone: each counts failures alone, so a failing server takes up to " + c.workers()
                            + " times max_fails failures and " + c.workers() + " probes per fail_timeout",
                    Map.of("workers", (long) c.workers()),
                    "upstream " + c.name() + " {\n    zone " + c.name() + " 64k;\n    ...\n}",
                    file(up),
                    up.line()));
        }
        List<String> backups = new ArrayList<>();
        for (NginxServer s : c.servers()) {
            if (s.backup()) {
                backups.add(s.name());
            }
        }
        if (!single && backups.isEmpty()) {
            out.add(finding(
                    ServerRule.NGINX_ALL_DOWN_502,
                    Severity.NOTE,
                    target,
                    "when every server is out nginx answers 502"
                            + " \"no live upstreams\" without trying one until a fail_timeout lapses, even after they recover",
                    Map.of("servers", (long) c.servers().size()),
                    "server 10.0.0.9:8080 backup;   # tried when every " + "other server is out",
                    file(up),
                    up.line()));
        } else if (!backups.isEmpty()) {
            // ngx_http_upstream_get_round_robin_peer: a try with no primary to select goes to peers->next
            out.add(finding(
                    ServerRule.NGINX_ALL_DOWN_502,
                    Severity.NOTE,
                    target,
                    "when every other server is out or already tried nginx sends to the backup "
                            + (backups.size() == 1 ? "server " : "servers ") + String.join(", ", backups)
                            + "; only when " + (backups.size() == 1 ? "it is" : "they are")
                            + " out too does it answer 502 \"no live upstreams\", until a fail_timeout lapses",
                    ordered("servers", (long) (c.servers().size() - backups.size()), "backups", (long) backups.size()),
                    null,
                    file(up),
                    up.line()));
        }
        out.addAll(ReaderNotes.of(settings.notes(), file(up), up.line()));
        return out;
    }

    /** Numbers in the order given (Map.of's order changes from one run to the next). */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return m;
    }

    private static int upCount(NginxUpstreamConfig c) {
        int n = 0;
        for (NginxServer s : c.servers()) {
            n += s.down() ? 0 : 1;
        }
        return n;
    }

    private static String file(ConfDirective d) {
        return d.file().toString();
    }

    private static Finding finding(
            ServerRule rule,
            Severity severity,
            String target,
            String message,
            Map<String, Object> numbers,
            String fix,
            String file,
            int line) {
        return new Finding(rule, severity, target, message, new LinkedHashMap<>(numbers), fix, file, line, List.of());
    }
}
