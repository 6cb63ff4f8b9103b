package dev.outlierlab.report.proxies;

import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.Map;

/**
 * A run through a proxy's own passive checks (nginx, HAProxy, Caddy) as its reports show it: what the clients got,
 * each server's attempts and ejections, and every ejection and return with the proxy's own reason.
 *
 * @param profile      the profile's name ({@code nginx}, {@code haproxy}, {@code caddy})
 * @param head         the report's first line: what ran, through which part of which configuration
 * @param scenario     the scenario on the servers (its hosts are the servers' addresses)
 * @param requests     client requests
 * @param clientErrors requests whose client got a 5xx
 * @param noneLeft     what the proxy answers when no server is left, e.g. {@code no live upstreams (502)}
 * @param noneLeftCount requests answered so
 * @param servers      the servers' addresses in order
 * @param attempts     attempts per server
 * @param ejections    ejections per server
 * @param counters     the profile's own totals, in order (e.g. {@code retries}), for the text's and JSON's summary
 * @param events       every ejection and return, in time order
 * @param requestsDuringFault     client requests sent while a fault was on (0 for a replayed trace)
 * @param clientErrorsDuringFault those whose client got a 5xx
 */
public record ServerRun(
        String profile,
        String head,
        Scenario scenario,
        long requests,
        long clientErrors,
        String noneLeft,
        long noneLeftCount,
        List<String> servers,
        long[] attempts,
        long[] ejections,
        Map<String, Long> counters,
        List<Event> events,
        long requestsDuringFault,
        long clientErrorsDuringFault) {

    /**
     * One ejection ({@code eject}) or return ({@code uneject}).
     *
     * @param timeNanos when
     * @param action    {@code eject} or {@code uneject}
     * @param server    the server's address
     * @param reason    the proxy's reason, a word ({@code max_fails}, {@code observe}, {@code fail_duration}, ...)
     * @param detail    what the text report says after the reason (may be empty)
     * @param figures   the event's own figures for JSON (fails, health, worker, ...)
     */
    public record Event(
            long timeNanos, String action, String server, String reason, String detail, Map<String, Long> figures) {}

    /** Ejections of every server. */
    public long totalEjections() {
        long n = 0;
        for (long e : ejections) {
            n += e;
        }
        return n;
    }

    /** The percentage of requests whose client got a 5xx. */
    public double clientErrorPercent() {
        return requests == 0 ? 0.0 : 100.0 * clientErrors / requests;
    }
}
