package dev.outlierlab.report.eventlog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.report.ResultJson;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The JSON of an event-log comparison: the log's read figures (lines, events, bad lines with the first ten,
 * events of clusters not replayed) and, per detector, per kind of event ({@code eject}, {@code unenforced},
 * {@code uneject}) the counts and every matched, missed and extra event with its host, detector, wall-clock
 * time and time in the replay (seconds); times are ISO-8601 instants.
 */
public final class EventLogJson {
    private EventLogJson() {}

    /** The log's own figures; {@code compared} are the clusters some detector was compared with. */
    public static ObjectNode head(EventLogReader.EventLog log, List<String> compared) {
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("source", log.source());
        n.put("lines", log.lines());
        n.put("events", log.events().size());
        n.put("bad", log.bad());
        ArrayNode bad = n.putArray("first_bad");
        for (EventLogReader.Bad b : log.firstBad()) {
            bad.addObject().put("line", b.line()).put("why", b.why());
        }
        ObjectNode other = n.putObject("other_clusters");
        log.clusters().forEach((c, count) -> {
            if (!compared.contains(c)) {
                other.put(c, count);
            }
        });
        return n;
    }

    /** One detector's comparison. */
    public static ObjectNode render(EventLogComparison.Result r) {
        ObjectNode n = ResultJson.mapper().createObjectNode();
        n.put("cluster", r.cluster());
        n.put("interval_seconds", r.intervalNanos() / 1e9);
        n.put("origin", Instant.ofEpochSecond(0, r.originEpochNanos()).toString());
        n.put("all_matched", r.allMatched());
        n.put("outside_span", r.outside().size());
        for (EnvoyEvent.Kind k : EnvoyEvent.Kind.values()) {
            EventLogComparison.Tally t = r.tallies().get(k);
            ObjectNode kn = n.putObject(k.jsonName());
            kn.put("envoy", t.envoy())
                    .put("lab", t.lab())
                    .put("matched_count", t.matched().size())
                    .put("missed_count", t.missed().size())
                    .put("extra_count", t.extra().size());
            ArrayNode matched = kn.putArray("matched");
            for (EventLogComparison.Match m : t.matched()) {
                ObjectNode o = matched.addObject();
                envoy(o, m.envoy(), r);
                o.put("lab_time", Instant.ofEpochSecond(0, m.lab().epochNanos()).toString());
                o.put("difference_seconds", m.differenceNanos() / 1e9);
            }
            ArrayNode missed = kn.putArray("missed");
            for (EnvoyEvent e : t.missed()) {
                envoy(missed.addObject(), e, r);
            }
            ArrayNode extra = kn.putArray("extra");
            for (EventLogComparison.LabEvent l : t.extra()) {
                extra.addObject()
                        .put("host", l.event().host())
                        .put(
                                "type",
                                l.event().type() == null
                                        ? null
                                        : l.event().type().name().toLowerCase(Locale.ROOT))
                        .put(
                                "lab_time",
                                Instant.ofEpochSecond(0, l.epochNanos()).toString())
                        .put("seconds", l.event().timeNanos() / 1e9);
            }
        }
        return n;
    }

    private static void envoy(ObjectNode o, EnvoyEvent e, EventLogComparison.Result r) {
        o.put("host", e.host());
        o.put("type", e.kind() == EnvoyEvent.Kind.UNEJECT ? null : e.typeName().toLowerCase(Locale.ROOT));
        o.put("line", e.line());
        o.put("envoy_time", Instant.ofEpochSecond(0, e.epochNanos()).toString());
        o.put("seconds", (e.epochNanos() - r.originEpochNanos()) / 1e9);
    }
}
