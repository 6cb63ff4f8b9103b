package dev.outlierlab.report;

import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.HostTraffic;
import dev.outlierlab.sim.ReplayResult;
import dev.outlierlab.sim.RunSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Two replays of the same traffic with two sets of settings, side by side: the headline figures of each prediction in
 * two columns (the log's own requests and failures are the same for both), then every decision that one made and the
 * other did not (same time, host, action and detector).
 */
public final class ReplayComparisonText {
    private ReplayComparisonText() {}

    public static String render(String labelA, ReplayResult a, String labelB, ReplayResult b, int maxEvents) {
        StringBuilder out = new StringBuilder("\nComparison\n");
        String row = "  %-26s %18s %18s%n";
        out.append(String.format(Locale.ROOT, row, "", "A", "B"));
        RunSummary sa = a.run().summary();
        RunSummary sb = b.run().summary();
        row(out, row, "detections", sa.ejectionsDetected(), sb.ejectionsDetected());
        row(out, row, "ejections", sa.ejectionsEnforced(), sb.ejectionsEnforced());
        row(out, row, "cap refused", sa.ejectionsOverflow(), sb.ejectionsOverflow());
        row(out, row, "not enforced", sa.ejectionsUnenforced(), sb.ejectionsUnenforced());
        row(out, row, "returns", sa.returns(), sb.returns());
        row(out, row, "most out at once", sa.maxEjectedAtOnce(), sb.maxEjectedAtOnce());
        out.append(String.format(
                Locale.ROOT,
                row,
                "time ejected (all hosts)",
                Numbers.seconds(ejected(a)),
                Numbers.seconds(ejected(b))));
        row(out, row, "requests moved", a.requestsWhileEjected(), b.requestsWhileEjected());
        row(out, row, "failures avoided, at most", a.failedWhileEjected(), b.failedWhileEjected());
        out.append(String.format(
                Locale.ROOT,
                row,
                "panic",
                Numbers.one(sa.panicSeconds()) + " s",
                Numbers.one(sb.panicSeconds()) + " s"));
        out.append("  A: ").append(labelA).append("\n  B: ").append(labelB).append('\n');
        List<Diff> differ = new ArrayList<>();
        addOnly(differ, "A only", a.run().events(), b.run().events());
        addOnly(differ, "B only", b.run().events(), a.run().events());
        differ.sort(Comparator.comparingLong(Diff::nanos));
        out.append("\nDecisions that differ (").append(differ.size()).append(")\n");
        if (differ.isEmpty()) {
            out.append("  none: both settings make the same decisions at the same times\n");
        }
        for (int i = 0; i < differ.size() && i < maxEvents; i++) {
            out.append("  ").append(differ.get(i).text()).append('\n');
        }
        if (differ.size() > maxEvents) {
            out.append("  ... ").append(differ.size() - maxEvents).append(" more\n");
        }
        return out.toString();
    }

    private static void row(StringBuilder out, String row, String name, long a, long b) {
        out.append(String.format(Locale.ROOT, row, name, Numbers.count(a), Numbers.count(b)));
    }

    private static long ejected(ReplayResult r) {
        return r.hosts().stream().mapToLong(HostTraffic::ejectedNanos).sum();
    }

    private static String key(OutlierEvent e) {
        return e.timeNanos() + " " + e.host() + " " + e.action() + " " + e.type();
    }

    /** Events of {@code mine} with no event of the same key left in {@code theirs} (counting repeats). */
    private record Diff(long nanos, String text) {}

    private static void addOnly(List<Diff> out, String tag, List<OutlierEvent> mine, List<OutlierEvent> theirs) {
        Map<String, Integer> left = new HashMap<>();
        for (OutlierEvent e : theirs) {
            left.merge(key(e), 1, Integer::sum);
        }
        for (OutlierEvent e : mine) {
            Integer n = left.get(key(e));
            if (n != null && n > 0) {
                left.put(key(e), n - 1);
                continue;
            }
            out.add(new Diff(
                    e.timeNanos(),
                    String.format(
                            Locale.ROOT,
                            "%-7s %-10s %-16s %-9s %s",
                            tag,
                            Numbers.seconds(e.timeNanos()),
                            e.host(),
                            e.action().name().toLowerCase(Locale.ROOT),
                            e.type() == null ? "-" : e.type().name().toLowerCase(Locale.ROOT))));
        }
    }
}
