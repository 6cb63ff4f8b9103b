package dev.outlierlab.report;

import dev.outlierlab.sim.HostTraffic;
import dev.outlierlab.sim.ReplayResult;
import java.util.Locale;

/**
 * The part of a replay's text report that a run does not have: per host, the requests and failures it received,
 * the time the settings would have kept it ejected, and what it received meanwhile (the traffic ejection would
 * have sent to other hosts), then the panic time.
 */
public final class ReplayHostsText {
    private ReplayHostsText() {
    }

    public static String render(ReplayResult r) {
        StringBuilder out = new StringBuilder("\nWhile ejected (traffic the ejections would have moved to other hosts)\n");
        int width = "host".length();
        for (HostTraffic h : r.hosts()) {
            width = Math.max(width, h.host().length());
        }
        String row = "  %-" + width + "s  %10s  %9s  %12s  %16s  %15s%n";
        out.append(String.format(Locale.ROOT, row, "host", "requests", "failed", "ejected for", "received ejected",
                "failed ejected"));
        for (HostTraffic h : r.hosts()) {
            out.append(String.format(Locale.ROOT, row, h.host(), Numbers.count(h.requests()), Numbers.count(h.failed()),
                    Numbers.seconds(h.ejectedNanos()), Numbers.count(h.requestsWhileEjected()),
                    Numbers.count(h.failedWhileEjected())));
        }
        long failed = r.run().summary().failed();
        out.append(String.format(Locale.ROOT, "  total: %s of %s failed requests arrived at a host the settings would "
                        + "have ejected (%s %%)%n", Numbers.count(r.failedWhileEjected()), Numbers.count(failed),
                Numbers.two(failed == 0 ? 0 : r.failedWhileEjected() * 100.0 / failed)));
        out.append("  panic: ").append(Numbers.one(r.run().summary().panicSeconds()))
                .append(" s with too few hosts in rotation (healthy_panic_threshold)\n");
        return out.toString();
    }
}
