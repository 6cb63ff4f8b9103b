package dev.outlierlab.check.proxies;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.ServerRule;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.haproxy.HaproxySettings;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import dev.outlierlab.engine.haproxy.OnError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code check}'s findings for a HAProxy backend's servers: passive checks that cannot act, passing checks that
 * undo them, and returns that make a server flap; each fix in haproxy.cfg's syntax.
 */
public final class HaproxyChecks {
    private HaproxyChecks() {}

    public static List<Finding> forBackend(HaproxySettings settings, String file) {
        List<Finding> out = new ArrayList<>();
        String target = "backend " + settings.backend();
        for (int i = 0; i < settings.servers().size(); i++) {
            HaproxyServer s = settings.servers().get(i);
            int line = settings.serverLines().get(i);
            String head = "server " + s.name() + " " + s.address();
            if (s.observe() != Observe.NONE && !s.check()) {
                out.add(finding(
                        ServerRule.HAPROXY_OBSERVE_WITHOUT_CHECK,
                        Severity.ERROR,
                        target,
                        s.name() + ": observe " + s.observe().word()
                                + " without check: HAProxy accepts it and never acts on it",
                        Map.of("server", s.name()),
                        head + " check observe " + s.observe().word() + " error-limit " + s.errorLimit() + " on-error "
                                + s.onError().word(),
                        file,
                        line));
                continue;
            }
            if (s.observe() == Observe.NONE) {
                out.add(finding(
                        ServerRule.HAPROXY_NO_OBSERVE,
                        Severity.NOTE,
                        target,
                        s.name() + ": no observe; "
                                + (s.check() ? "only active checks take it out" : "nothing takes it out"),
                        Map.of("server", s.name()),
                        head + " check observe layer7 error-limit 10 on-error mark-down",
                        file,
                        line));
                continue;
            }
            if (s.onError() == OnError.FAIL_CHECK || s.onError() == OnError.FASTINTER) {
                long perSecond =
                        (long) Math.ceil(s.errorLimit() * (double) s.fall() * Durations.SECOND / s.interNanos());
                out.add(finding(
                        ServerRule.HAPROXY_CHECKS_CLEAR_ERRORS,
                        Severity.WARNING,
                        target,
                        s.name() + ": on-error "
                                + s.onError().word()
                                + (s.onError() == OnError.FASTINTER
                                        ? " only checks sooner"
                                        : " needs "
                                                + s.fall() + " trips of " + s.errorLimit()
                                                + " consecutive errors between two passing checks "
                                                + "(every " + Durations.format(s.interNanos()) + "): below about "
                                                + perSecond + " errors a "
                                                + "second to this server it is never taken DOWN while its health check passes"),
                        Map.of("server", s.name(), "error_limit", (long) s.errorLimit(), "fall", (long) s.fall()),
                        head + " check observe " + s.observe().word() + " error-limit " + s.errorLimit()
                                + " on-error mark-down",
                        file,
                        line));
            } else {
                out.add(finding(
                        ServerRule.HAPROXY_FLAPS,
                        Severity.NOTE,
                        target,
                        s.name() + ": on-error "
                                + s.onError().word() + " takes it DOWN, and " + s.rise()
                                + " passing checks bring it back ("
                                + Durations.format(s.downinterNanos() > 0 ? s.downinterNanos() : s.interNanos())
                                + " apart while DOWN) if the health endpoint does not share the fault",
                        Map.of("server", s.name(), "rise", (long) s.rise()),
                        head + " check observe " + s.observe().word()
                                + " error-limit " + s.errorLimit() + " on-error "
                                + s.onError().word()
                                + " rise 5 downinter 5s",
                        file,
                        line));
            }
        }
        out.addAll(ReaderNotes.of(settings.notes(), file, settings.backendLine()));
        return out;
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
