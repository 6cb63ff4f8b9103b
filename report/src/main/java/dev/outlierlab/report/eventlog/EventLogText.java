package dev.outlierlab.report.eventlog;

import dev.outlierlab.config.Wording;
import dev.outlierlab.report.Numbers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The text of an event-log comparison: what was read from Envoy's event log, then per detector a table of
 * Envoy's events, the lab's, and how many matched, were missed (Envoy only) and extra (lab only), the largest time
 * difference of a match, and the missed and extra events themselves, each with its wall-clock time and its time
 * in the replay.
 */
public final class EventLogText {
    private EventLogText() {}

    /** The lines about the event log itself, for the head of the report. */
    public static String head(EventLogReader.EventLog log, List<String> compared) {
        StringBuilder out = new StringBuilder();
        out.append("  event log    ")
                .append(Wording.printable(log.source()))
                .append(": ")
                .append(Numbers.count(log.lines()))
                .append(" lines, ")
                .append(Numbers.count(log.events().size()))
                .append(" events, ")
                .append(Numbers.count(log.bad()))
                .append(" bad");
        long other = 0;
        List<String> names = new ArrayList<>();
        for (var e : log.clusters().entrySet()) {
            if (!compared.contains(e.getKey())) {
                other += e.getValue();
                names.add(Wording.printable(e.getKey()) + " " + e.getValue());
            }
        }
        out.append(", ").append(Numbers.count(other)).append(" of other clusters");
        if (!names.isEmpty()) {
            out.append(" (ignored: ")
                    .append(String.join(", ", names.subList(0, Math.min(5, names.size()))))
                    .append(names.size() > 5 ? ", ..." : "")
                    .append(')');
        }
        out.append('\n');
        for (EventLogReader.Bad b : log.firstBad()) {
            out.append("  bad event    ")
                    .append(Wording.printable(log.source()))
                    .append(':')
                    .append(b.line())
                    .append(": ")
                    .append(b.why())
                    .append('\n');
        }
        return out.toString();
    }

    /**
     * One detector's comparison; {@code against} names the settings ("the lab", or the second ones), and
     * {@code maxEvents} bounds the missed and extra events listed.
     */
    public static String render(String source, EventLogComparison.Result r, String against, int maxEvents) {
        StringBuilder out = new StringBuilder("\nEnvoy's event log (")
                .append(Wording.printable(source))
                .append(", cluster ")
                .append(r.cluster().isEmpty() ? "not named" : Wording.printable(r.cluster()))
                .append(") against ")
                .append(against)
                .append('\n');
        String row = "  %-14s %8s %8s %8s %8s %8s %12s%n";
        out.append(String.format(Locale.ROOT, row, "", "Envoy", "lab", "matched", "missed", "extra", "most apart"));
        for (EnvoyEvent.Kind k : EnvoyEvent.Kind.values()) {
            EventLogComparison.Tally t = r.tallies().get(k);
            out.append(String.format(
                    Locale.ROOT,
                    row,
                    k.plural(),
                    Numbers.count(t.envoy()),
                    Numbers.count(t.lab()),
                    Numbers.count(t.matched().size()),
                    Numbers.count(t.missed().size()),
                    Numbers.count(t.extra().size()),
                    t.matched().isEmpty() ? "-" : Numbers.seconds(t.maxDifferenceNanos())));
        }
        out.append("  matched: same host, same action and detector, at most one interval (")
                .append(Numbers.seconds(r.intervalNanos()))
                .append(") apart; the lab's time 0 is ")
                .append(Instant.ofEpochSecond(0, r.originEpochNanos()))
                .append('\n');
        if (!r.outside().isEmpty()) {
            out.append("  outside the replayed span (not judged): ")
                    .append(Numbers.count(r.outside().size()))
                    .append(r.outside().size() == 1 ? " Envoy event, at " : " Envoy events, the first at ")
                    .append(Instant.ofEpochSecond(0, r.outside().get(0).epochNanos()))
                    .append('\n');
        }
        List<Line> lines = new ArrayList<>();
        for (EnvoyEvent.Kind k : EnvoyEvent.Kind.values()) {
            EventLogComparison.Tally t = r.tallies().get(k);
            for (EnvoyEvent e : t.missed()) {
                lines.add(new Line(
                        e.epochNanos(),
                        "missed",
                        e.host(),
                        k,
                        e.kind() == EnvoyEvent.Kind.UNEJECT ? "-" : e.typeName().toLowerCase(Locale.ROOT),
                        "line " + e.line()));
            }
            for (EventLogComparison.LabEvent l : t.extra()) {
                lines.add(new Line(
                        l.epochNanos(),
                        "extra",
                        l.event().host(),
                        k,
                        l.event().type() == null ? "-" : l.event().type().name().toLowerCase(Locale.ROOT),
                        ""));
            }
        }
        if (lines.isEmpty()) {
            out.append("  the lab made every decision Envoy logged, and no other\n");
            return out.toString();
        }
        lines.sort(Comparator.comparingLong(Line::epochNanos));
        out.append("  missed: Envoy did it, the lab did not; extra: the lab did it, Envoy did not\n");
        for (int i = 0; i < lines.size() && i < maxEvents; i++) {
            Line l = lines.get(i);
            out.append(String.format(
                                    Locale.ROOT,
                                    "  %-7s %-30s %10s  %-16s %-10s %-32s %s%n",
                                    l.tag(),
                                    Instant.ofEpochSecond(0, l.epochNanos()),
                                    Numbers.seconds(l.epochNanos() - r.originEpochNanos()),
                                    Wording.printable(l.host()),
                                    action(l.kind()),
                                    l.type(),
                                    l.where())
                            .stripTrailing())
                    .append('\n');
        }
        if (lines.size() > maxEvents) {
            out.append("  ... ").append(lines.size() - maxEvents).append(" more\n");
        }
        return out.toString();
    }

    private static String action(EnvoyEvent.Kind k) {
        return switch (k) {
            case EJECT -> "eject";
            case UNENFORCED -> "unenforced";
            case UNEJECT -> "uneject";
        };
    }

    private record Line(long epochNanos, String tag, String host, EnvoyEvent.Kind kind, String type, String where) {}
}
