package dev.outlierlab.report.eventlog;

import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Envoy's own outlier events for one cluster against the decisions the lab made replaying the same traffic.
 * Both are put on the wall clock: an Envoy event at its {@code timestamp}, a lab decision at the replay's origin
 * (the earliest outcome of the access log, as an instant) plus its time. Ejections, unenforced detections and
 * returns are compared separately; the lab's cap refusals (overflow) are left out because Envoy's event log has
 * no line for them. An Envoy event and a lab decision <em>match</em> when they name the same host, are the same
 * kind, have the same detector (for ejections, when the line's type is one the API knows), and are at most one
 * {@code interval} apart ({@code |lab - envoy| <= interval}): the lab's interval ticks run from the log's first
 * outcome, Envoy's from when its cluster was created, so a decision taken on a tick (success rate, failure
 * percentage, returns) can be up to one interval apart in the two while being the same decision. Envoy events are
 * taken in time order, each matching the earliest lab decision still unmatched that qualifies. An Envoy event
 * left over is <em>missed</em> (Envoy did it, the lab did not); a lab decision left over is <em>extra</em>. Envoy
 * events more than one interval before the replay's origin or after its end are <em>outside</em> the replayed
 * span and not judged.
 */
public final class EventLogComparison {
    /** One lab decision on the wall clock. */
    public record LabEvent(long epochNanos, OutlierEvent event) {}

    /** A matched pair; {@code differenceNanos} is the lab's time minus Envoy's. */
    public record Match(EnvoyEvent envoy, LabEvent lab, long differenceNanos) {}

    /** The comparison of one kind of event. */
    public record Tally(long envoy, long lab, List<Match> matched, List<EnvoyEvent> missed, List<LabEvent> extra) {
        public Tally {
            matched = List.copyOf(matched);
            missed = List.copyOf(missed);
            extra = List.copyOf(extra);
        }

        /** The largest time difference of a match, 0 when there is none. */
        public long maxDifferenceNanos() {
            return matched.stream()
                    .mapToLong(m -> Math.abs(m.differenceNanos()))
                    .max()
                    .orElse(0);
        }
    }

    /**
     * The comparison.
     *
     * @param originEpochNanos the replay's time zero on the wall clock
     * @param spanNanos        how long the replay ran
     * @param outside          Envoy events outside the replayed span, not judged
     */
    public record Result(
            String cluster,
            long intervalNanos,
            long originEpochNanos,
            long spanNanos,
            Map<EnvoyEvent.Kind, Tally> tallies,
            List<EnvoyEvent> outside) {
        public Result {
            tallies = Collections.unmodifiableMap(new EnumMap<>(tallies));
            outside = List.copyOf(outside);
        }

        /** Whether the lab reproduced every judged Envoy event and made no other decision. */
        public boolean allMatched() {
            return tallies.values().stream()
                    .allMatch(t -> t.missed().isEmpty() && t.extra().isEmpty());
        }
    }

    private EventLogComparison() {}

    /**
     * Compares.
     *
     * @param envoy            Envoy's events of this cluster, in any order
     * @param lab              the lab's decisions, times since {@code originEpochNanos}
     * @param originEpochNanos the replay's time zero on the wall clock
     * @param spanNanos        how long the replay ran (its duration)
     * @param intervalNanos    the replayed settings' {@code interval}
     */
    public static Result compare(
            String cluster,
            List<EnvoyEvent> envoy,
            List<OutlierEvent> lab,
            long originEpochNanos,
            long spanNanos,
            long intervalNanos) {
        Map<EnvoyEvent.Kind, List<EnvoyEvent>> envoyByKind = new EnumMap<>(EnvoyEvent.Kind.class);
        Map<EnvoyEvent.Kind, List<LabEvent>> labByKind = new EnumMap<>(EnvoyEvent.Kind.class);
        List<EnvoyEvent> outside = new ArrayList<>();
        for (EnvoyEvent.Kind k : EnvoyEvent.Kind.values()) {
            envoyByKind.put(k, new ArrayList<>());
            labByKind.put(k, new ArrayList<>());
        }
        for (EnvoyEvent e : envoy) {
            if (e.epochNanos() < originEpochNanos - intervalNanos
                    || e.epochNanos() > originEpochNanos + spanNanos + intervalNanos) {
                outside.add(e);
            } else {
                envoyByKind.get(e.kind()).add(e);
            }
        }
        for (OutlierEvent e : lab) {
            EnvoyEvent.Kind k = kind(e.action());
            if (k != null) {
                labByKind.get(k).add(new LabEvent(originEpochNanos + e.timeNanos(), e));
            }
        }
        Map<EnvoyEvent.Kind, Tally> tallies = new EnumMap<>(EnvoyEvent.Kind.class);
        for (EnvoyEvent.Kind k : EnvoyEvent.Kind.values()) {
            tallies.put(k, match(envoyByKind.get(k), labByKind.get(k), intervalNanos));
        }
        outside.sort(Comparator.comparingLong(EnvoyEvent::epochNanos).thenComparingLong(EnvoyEvent::line));
        return new Result(cluster, intervalNanos, originEpochNanos, spanNanos, tallies, outside);
    }

    /** The kind of Envoy event a lab decision corresponds to; null for an overflow, which Envoy does not log. */
    static EnvoyEvent.Kind kind(EventAction action) {
        return switch (action) {
            case EJECT -> EnvoyEvent.Kind.EJECT;
            case UNENFORCED -> EnvoyEvent.Kind.UNENFORCED;
            case UNEJECT -> EnvoyEvent.Kind.UNEJECT;
            case OVERFLOW -> null;
        };
    }

    private static Tally match(List<EnvoyEvent> envoy, List<LabEvent> lab, long interval) {
        List<EnvoyEvent> sorted = new ArrayList<>(envoy);
        sorted.sort(Comparator.comparingLong(EnvoyEvent::epochNanos).thenComparingLong(EnvoyEvent::line));
        List<LabEvent> labSorted = new ArrayList<>(lab);
        labSorted.sort(Comparator.comparingLong(LabEvent::epochNanos));
        Map<String, List<LabEvent>> labByHost = new HashMap<>();
        for (LabEvent l : labSorted) {
            labByHost.computeIfAbsent(l.event().host(), h -> new ArrayList<>()).add(l);
        }
        Set<LabEvent> used = Collections.newSetFromMap(new IdentityHashMap<>());
        Map<String, int[]> firstCandidate = new HashMap<>();
        List<Match> matched = new ArrayList<>();
        List<EnvoyEvent> missed = new ArrayList<>();
        for (EnvoyEvent e : sorted) {
            List<LabEvent> mine = labByHost.getOrDefault(e.host(), List.of());
            // Envoy events come in time order: lab decisions too early for this one are too early for the rest
            int[] from = firstCandidate.computeIfAbsent(e.host(), h -> new int[1]);
            while (from[0] < mine.size() && mine.get(from[0]).epochNanos() < e.epochNanos() - interval) {
                from[0]++;
            }
            LabEvent found = null;
            for (int i = from[0]; i < mine.size(); i++) {
                LabEvent l = mine.get(i);
                if (l.epochNanos() - e.epochNanos() > interval) {
                    break;
                }
                if (!used.contains(l) && sameType(e, l.event())) {
                    found = l;
                    break;
                }
            }
            if (found == null) {
                missed.add(e);
            } else {
                used.add(found);
                matched.add(new Match(e, found, found.epochNanos() - e.epochNanos()));
            }
        }
        List<LabEvent> extra = labSorted.stream().filter(l -> !used.contains(l)).toList();
        return new Tally(envoy.size(), lab.size(), matched, missed, extra);
    }

    /** Same detector, where both are known: returns carry none, and an unknown Envoy type matches any. */
    private static boolean sameType(EnvoyEvent e, OutlierEvent l) {
        return e.kind() == EnvoyEvent.Kind.UNEJECT || e.type() == null || e.type() == l.type();
    }
}
