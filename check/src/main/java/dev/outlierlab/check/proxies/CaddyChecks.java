package dev.outlierlab.check.proxies;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.ServerRule;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.caddy.CaddySettings;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code check}'s findings for a Caddy {@code reverse_proxy}: passive checks off, 5xx not counted, one failure
 * enough, dial errors reaching clients, a hanging upstream never counted, slow 5xx counted twice; each fix as Caddyfile subdirectives (or the JSON
 * keys, for a JSON configuration).
 */
public final class CaddyChecks {
    private CaddyChecks() {}

    public static List<Finding> forReverseProxy(CaddySettings settings, String file) {
        CaddyPassiveConfig c = settings.config();
        boolean json = settings.json();
        int line = settings.line();
        String target = "reverse_proxy " + String.join(" ", c.upstreams());
        List<Finding> out = new ArrayList<>();
        if (!c.passive()) {
            out.add(finding(
                    ServerRule.CADDY_PASSIVE_OFF,
                    Severity.NOTE,
                    target,
                    "no fail_duration: passive health checks " + "are off, nothing takes an upstream out",
                    Map.of(),
                    json
                            ? "\"health_checks\": {\"passive\": {\"fail_duration\": \"30s\", \"max_fails\": 3, "
                                    + "\"unhealthy_status\": [5]}}"
                            : "fail_duration 30s\nmax_fails 3\nunhealthy_status 5xx",
                    file,
                    line));
        } else {
            if (c.unhealthyStatus().isEmpty()) {
                out.add(finding(
                        ServerRule.CADDY_5XX_NOT_COUNTED,
                        Severity.WARNING,
                        target,
                        "no unhealthy_status: an "
                                + "upstream answering 5xx is never taken out, and clients get every one",
                        Map.of(),
                        json ? "\"unhealthy_status\": [5]" : "unhealthy_status 5xx",
                        file,
                        line));
            }
            if (c.maxFails() == 1) {
                out.add(finding(
                        ServerRule.CADDY_MAX_FAILS_ONE,
                        Severity.NOTE,
                        target,
                        "max_fails is 1: one failure takes an " + "upstream out for "
                                + Durations.format(c.failDurationNanos()),
                        Map.of("max_fails", 1L),
                        json ? "\"max_fails\": 3" : "max_fails 3",
                        file,
                        line));
            }
            if (c.tryDurationNanos() == 0 && c.retries() == 0) {
                out.add(finding(
                        ServerRule.CADDY_DIAL_ERRORS_REACH_CLIENTS,
                        Severity.WARNING,
                        target,
                        "no lb_try_duration: "
                                + "each refused connection is a 502 to a client; a dead upstream takes " + c.maxFails()
                                + " requests every " + Durations.format(c.failDurationNanos()) + " (the window slides "
                                + "failure by failure)",
                        Map.of(
                                "max_fails",
                                (long) c.maxFails(),
                                "fail_duration",
                                Durations.format(c.failDurationNanos())),
                        json ? "\"load_balancing\": {\"try_duration\": \"5s\"}" : "lb_try_duration 5s",
                        file,
                        line));
            }
            if (c.responseHeaderTimeoutNanos() == 0) {
                out.add(hangingUpstream(c, target, json, file, line));
            }
            if (c.unhealthyLatencyNanos() > 0 && !c.unhealthyStatus().isEmpty()) {
                out.add(finding(
                        ServerRule.CADDY_SLOW_5XX_TWICE,
                        Severity.NOTE,
                        target,
                        "a response that matches "
                                + "unhealthy_status and takes " + Durations.format(c.unhealthyLatencyNanos())
                                + " or longer counts twice",
                        Map.of(),
                        null,
                        file,
                        line));
            }
        }
        out.addAll(ReaderNotes.of(settings.notes(), file, line));
        return out;
    }

    /**
     * Passive checks on, no {@code response_header_timeout}: a try that is never answered never returns from the
     * transport ({@code proxyLoopIteration} in {@code reverseproxy.go}), so it is not counted and not retried.
     */
    private static Finding hangingUpstream(CaddyPassiveConfig c, String target, boolean json, String file, int line) {
        int n = c.upstreams().size();
        String share = c.policy() == CaddySelection.Policy.FIRST
                ? "under lb_policy first, every request while it is the first available"
                : "1 in " + n + " of the requests across " + n + " upstreams";
        Map<String, Object> numbers = new LinkedHashMap<>();
        numbers.put("max_fails", (long) c.maxFails());
        numbers.put("fail_duration", Durations.format(c.failDurationNanos()));
        numbers.put("upstreams", (long) n);
        return new Finding(
                ServerRule.CADDY_HANGING_UPSTREAM_NEVER_COUNTED,
                Severity.WARNING,
                target,
                "no response_header_timeout in an http transport: an upstream that accepts connections and never "
                        + "answers is never counted toward max_fails " + c.maxFails() + " in fail_duration "
                        + Durations.format(c.failDurationNanos()) + ", never taken out, and its requests (" + share
                        + ") are held until their clients give up, never retried; the timeout must exceed the "
                        + "slowest legitimate response, whose tries would otherwise fail and count too",
                numbers,
                json
                        ? "\"transport\": {\"protocol\": \"http\", \"response_header_timeout\": \"5s\"}"
                        : "transport http {\n\tresponse_header_timeout 5s\n}",
                file,
                line,
                List.of());
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
