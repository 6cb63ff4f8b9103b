package dev.outlierlab.report;

import dev.outlierlab.config.Wording;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.HostTraffic;
import dev.outlierlab.sim.ReplayResult;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The two parts of a replay's text report that a run does not have, kept apart: what the log recorded (each host's
 * requests and failures, as they happened), and what the settings' ejections would have changed (the time each
 * host would have been out, the requests that would have gone to other hosts meanwhile and the failures among
 * them, which at most would have been avoided), then the panic time.
 */
public final class ReplayHostsText {
    private ReplayHostsText() {}

    /** What the log recorded for this detector: its requests and failures, per host, as they happened. */
    public static String recorded(ReplayResult r) {
        StringBuilder out = new StringBuilder(
                "What the log recorded (every request as it happened, whatever the proxies" + " ejected then)\n");
        long requests = 0;
        long failed = 0;
        for (HostTraffic h : r.hosts()) {
            requests += h.requests();
            failed += h.failed();
        }
        out.append(String.format(
                Locale.ROOT,
                "  requests      %s over %s to %d hosts%n",
                Numbers.count(requests),
                Numbers.seconds(r.run().scenario().durationNanos()),
                r.hosts().size()));
        out.append(String.format(
                Locale.ROOT,
                "  failed        %s (%s %%)%n",
                Numbers.count(failed),
                Numbers.two(percent(failed, requests))));
        int width = width(r);
        String row = "  %-" + width + "s  %10s  %9s  %9s%n";
        out.append(String.format(Locale.ROOT, row, "host", "requests", "failed", "failed %"));
        for (HostTraffic h : r.hosts()) {
            out.append(String.format(
                    Locale.ROOT,
                    row,
                    Wording.printable(h.host()),
                    Numbers.count(h.requests()),
                    Numbers.count(h.failed()),
                    Numbers.two(percent(h.failed(), h.requests()))));
        }
        return out.toString();
    }

    /**
     * What the settings' ejections would have changed: per host, its ejections, the time out, the requests that
     * would have gone elsewhere and the failures among them; then the totals and the panic time.
     */
    public static String moved(ReplayResult r) {
        StringBuilder out = new StringBuilder(
                "\nWhile ejected (predicted: the requests these ejections would have moved " + "to other hosts)\n");
        Map<String, Long> ejections = ejections(r);
        String row = "  %-" + width(r) + "s  %9s  %12s  %14s  %16s%n";
        out.append(String.format(
                Locale.ROOT, row, "host", "ejections", "ejected for", "requests moved", "failures avoided"));
        for (HostTraffic h : r.hosts()) {
            out.append(String.format(
                    Locale.ROOT,
                    row,
                    Wording.printable(h.host()),
                    Numbers.count(ejections.getOrDefault(h.host(), 0L)),
                    Numbers.seconds(h.ejectedNanos()),
                    Numbers.count(h.requestsWhileEjected()),
                    Numbers.count(h.failedWhileEjected())));
        }
        long failed = r.run().summary().failed();
        out.append(String.format(
                Locale.ROOT,
                "  total: %s requests moved; at most %s of the log's %s failures avoided "
                        + "(%s %%), at least %s left%n",
                Numbers.count(r.requestsWhileEjected()),
                Numbers.count(r.failedWhileEjected()),
                Numbers.count(failed),
                Numbers.two(percent(r.failedWhileEjected(), failed)),
                Numbers.count(failed - r.failedWhileEjected())));
        out.append("  (at most: a moved request's answer from another host is not in the log)\n");
        out.append("  panic: ")
                .append(Numbers.one(r.run().summary().panicSeconds()))
                .append(" s with too few hosts in rotation (healthy_panic_threshold)\n");
        return out.toString();
    }

    /** The settings' ejections of each host in the replay. */
    public static Map<String, Long> ejections(ReplayResult r) {
        Map<String, Long> ejections = new HashMap<>();
        for (OutlierEvent e : r.run().events()) {
            if (e.action() == EventAction.EJECT) {
                ejections.merge(e.host(), 1L, Long::sum);
            }
        }
        return ejections;
    }

    private static int width(ReplayResult r) {
        int width = "host".length();
        for (HostTraffic h : r.hosts()) {
            width = Math.max(width, Wording.printable(h.host()).length());
        }
        return width;
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : part * 100.0 / whole;
    }
}
