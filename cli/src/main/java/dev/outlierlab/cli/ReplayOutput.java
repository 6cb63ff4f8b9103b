package dev.outlierlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.report.ReplayComparisonText;
import dev.outlierlab.report.ReplayHostsText;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.TextReport;
import dev.outlierlab.report.eventlog.EventLogJson;
import dev.outlierlab.report.eventlog.EventLogText;
import dev.outlierlab.sim.HostTraffic;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@code replay} prints, as text or JSON: the lines read and skipped, then per detector the run's report,
 * the traffic while ejected, with {@code --compare} or {@code --compare-set} the two settings side by side, and
 * with {@code --event-log} Envoy's own events against the lab's decisions (for each of the settings). The head
 * and each detector's section can be rendered apart ({@link #head}, {@link #section}, {@link #sectionJson}), so
 * that a distributed replay renders each detector where it was replayed and puts the report together in order.
 *
 * @param logs       the access logs as named on the command line
 * @param formatName the access-log format read
 * @param lines      what the read counted
 * @param results    one replay per detector with the first settings
 * @param compared   the same with the second settings, or null
 * @param compareLabel how the second settings are named ("those with ...", or the file)
 * @param compareSets  the {@code --compare-set} overrides
 * @param compareFile  the {@code --compare} file, or null
 * @param events     the event-log comparison with the first settings, or null
 * @param eventsB    the same with the second settings, or null
 */
public record ReplayOutput(List<String> logs, String formatName, BadLines lines, List<LogReplay.GroupResult> results,
                    List<LogReplay.GroupResult> compared, String compareLabel, List<String> compareSets,
                    String compareFile, EventLogOptions.Compared events, EventLogOptions.Compared eventsB) {

    /** The skipped-lines summary: no upstream host (by flag), no response code, other clusters, bad. */
    static String skipped(BadLines l) {
        String flags = l.noHostByFlag().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey().name() + " " + e.getValue()).collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "%,d", l.noUpstreamHost()) + " without an upstream host"
                + (flags.isEmpty() ? "" : " (" + flags + ")") + ", " + l.noResponse() + " without a response code, "
                + l.otherCluster() + " of other clusters, " + l.bad() + " bad";
    }

    public String text(int maxEvents) {
        StringBuilder out = new StringBuilder(head(results.size()));
        for (int i = 0; i < results.size(); i++) {
            out.append(section(i, maxEvents));
        }
        return out.toString();
    }

    /** The lines read and skipped and the number of detectors, as the text report begins. */
    public String head(int detectors) {
        StringBuilder out = new StringBuilder();
        out.append("outlier-lab replay: ").append(String.join(", ", logs)).append(" (format ").append(formatName)
                .append(")\n  lines        ").append(String.format(Locale.ROOT, "%,d", lines.lines()))
                .append(" read; skipped ").append(skipped(lines)).append('\n');
        for (BadLines.Bad b : lines.first()) {
            out.append("  bad line     ").append(b).append('\n');
        }
        out.append("  detectors    ").append(detectors).append(" (one per cluster and proxy instance)\n");
        if (events != null) {
            out.append(EventLogText.head(events.log(), events.clusters()));
        }
        return out.toString();
    }

    /** The text section of detector {@code i}: its run, its hosts' traffic while ejected, the comparison. */
    public String section(int i, int maxEvents) {
        StringBuilder out = new StringBuilder();
        LogReplay.GroupResult g = results.get(i);
        out.append("\n== ").append(g.group().label()).append(": ")
                .append(String.format(Locale.ROOT, "%,d", g.group().entries())).append(" outcomes ==\n\n");
        out.append(TextReport.render(g.result().run(), maxEvents, String.format(Locale.ROOT, "%,d",
                g.group().entries()) + " outcomes from the access log, "
                + g.scenario().cluster().hosts().size() + " hosts"));
        out.append(ReplayHostsText.render(g.result()));
        if (events != null) {
            out.append(EventLogText.render(events.log().source(), events.results().get(i), "the lab", maxEvents));
        }
        if (compared != null) {
            out.append(ReplayComparisonText.render("the settings above", g.result(), compareLabel,
                    compared.get(i).result(), maxEvents));
            if (eventsB != null) {
                out.append(EventLogText.render(events.log().source(), eventsB.results().get(i),
                        "the lab with B", maxEvents));
            }
        }
        return out.toString();
    }

    /** The CSV columns of {@link #csv}, in order. */
    static final List<String> CSV_COLUMNS = List.of("cluster", "instance", "host", "requests", "failed", "ejections",
            "ejected_s", "ejected_ns", "requests_while_ejected", "failed_while_ejected");

    /**
     * One row per detector and host, with a header row: the host's requests and failures in the log, how often the
     * settings ejected it, for how long, and what it received meanwhile (the traffic ejection would have moved).
     */
    public String csv() {
        StringBuilder out = new StringBuilder(String.join(",", CSV_COLUMNS)).append("\n");
        for (LogReplay.GroupResult g : results) {
            Map<String, Long> ejections = new java.util.HashMap<>();
            for (var e : g.result().run().events()) {
                if (e.action() == dev.outlierlab.engine.envoy.event.EventAction.EJECT) {
                    ejections.merge(e.host(), 1L, Long::sum);
                }
            }
            for (HostTraffic h : g.result().hosts()) {
                dev.outlierlab.report.RunCsv.row(out, g.group().cluster(), g.group().instance(), h.host(), h.requests(),
                        h.failed(), ejections.getOrDefault(h.host(), 0L),
                        java.math.BigDecimal.valueOf(h.ejectedNanos(), 9).stripTrailingZeros().toPlainString(),
                        h.ejectedNanos(), h.requestsWhileEjected(), h.failedWhileEjected());
            }
        }
        return out.toString();
    }

    public String json() {
        List<JsonNode> detectors = new java.util.ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            detectors.add(sectionJson(i));
        }
        return json(detectors);
    }

    /** The JSON report with these detectors' entries ({@link #sectionJson}), in order. */
    public String json(List<JsonNode> sections) {
        ObjectNode root = dev.outlierlab.report.JsonDocument.start("replay");
        ObjectNode l = root.putObject("lines");
        l.put("read", lines.lines());
        l.put("bad", lines.bad());
        l.put("no_upstream_host", lines.noUpstreamHost());
        l.put("no_response", lines.noResponse());
        l.put("other_cluster", lines.otherCluster());
        ArrayNode firstBad = l.putArray("first_bad");
        for (BadLines.Bad b : lines.first()) {
            firstBad.addObject().put("source", b.source()).put("line", b.line()).put("why", b.why());
        }
        if (events != null) {
            root.set("event_log", EventLogJson.head(events.log(), events.clusters()));
        }
        ArrayNode detectors = root.putArray("detectors");
        detectors.addAll(sections);
        return ResultJson.write(root);
    }

    /** The JSON entry of detector {@code i}. */
    public ObjectNode sectionJson(int i) {
        LogReplay.GroupResult g = results.get(i);
        ObjectNode d = ResultJson.mapper().createObjectNode();
        d.put("cluster", g.group().cluster());
        d.put("instance", g.group().instance());
        d.put("outcomes", g.group().entries());
        d.set("run", ResultJson.toTree(g.result().run(), false));
        if (events != null) {
            d.set("event_log", EventLogJson.render(events.results().get(i)));
        }
        if (compared != null) {
            ObjectNode c = d.putObject("compared");
            if (compareFile != null) {
                c.put("file", compareFile);
            }
            c.set("sets", ResultJson.mapper().valueToTree(compareSets));
            c.set("run", ResultJson.toTree(compared.get(i).result().run(), false));
            if (eventsB != null) {
                c.set("event_log", EventLogJson.render(eventsB.results().get(i)));
            }
        }
        ArrayNode hosts = d.putArray("hosts");
        for (HostTraffic h : g.result().hosts()) {
            hosts.addObject().put("host", h.host()).put("requests", h.requests()).put("failed", h.failed())
                    .put("ejected_seconds", h.ejectedNanos() / 1e9).put("requests_while_ejected", h.requestsWhileEjected())
                    .put("failed_while_ejected", h.failedWhileEjected());
        }
        return d;
    }
}
