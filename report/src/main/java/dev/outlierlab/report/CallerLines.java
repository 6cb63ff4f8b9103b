package dev.outlierlab.report;

import dev.outlierlab.config.Wording;
import dev.outlierlab.sim.HostTally;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The results of a run with several callers, as labelled lines: the counts are over every caller, the most hosts
 * any one caller had ejected at once, and the share of caller-time in which a
 * caller had a host ejected, in all and per host.
 */
final class CallerLines {
    private CallerLines() {}

    static void results(RunResult r, BiConsumer<String, String> line) {
        RunSummary sum = r.summary();
        int clients = r.clients();
        long duration = r.scenario().durationNanos();
        line.accept(
                "most out",
                sum.maxEjectedAtOnce() + " of " + r.scenario().cluster().size()
                        + " hosts ejected at once by one caller (the most of any caller; the counts above are over all "
                        + Numbers.count(clients) + " callers)");
        double anyShare = sum.ejectedCallerNanos() * 100.0 / ((double) clients * duration);
        List<String> hosts = new ArrayList<>();
        for (HostTally t : r.hosts()) {
            if (t.ejectedCallerNanos() > 0) {
                hosts.add(Wording.printable(t.host()) + " "
                        + Numbers.one(t.ejectedPercentOfCallerTime(clients, duration)) + " %");
            }
        }
        line.accept(
                "caller-time",
                Numbers.one(anyShare) + " % of caller-time with a host ejected"
                        + (hosts.isEmpty()
                                ? ""
                                : "; ejected by its callers: "
                                        + String.join(", ", hosts.size() > 6 ? hosts.subList(0, 6) : hosts)
                                        + (hosts.size() > 6 ? ", ..." : "")));
    }
}
