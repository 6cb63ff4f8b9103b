package dev.outlierlab.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.report.eventlog.ComparedEventLog;
import dev.outlierlab.report.eventlog.EventLogJson;
import dev.outlierlab.report.eventlog.EventLogText;
import dev.outlierlab.sim.HostTraffic;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@code replay} prints, as text or JSON: the lines read and skipped, then per detector what its log recorded
 * (requests and failures per host, as they happened) apart from what the settings predict (the run's report of
 * decisions, and the requests the ejections would have moved with the failures at most avoided), with
 * {@code --compare} or {@code --compare-set} the two settings side by side, and with {@code --event-log} Envoy's own
 * events against the lab's decisions (for each of the settings). The head
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
 * @param clock      the log's clock, for the span and the decisions' times; null: seconds from the start only
 * @param advice     how fixes are said: in the settings' own fields (a DestinationRule's), or Envoy's
 * @param rules      which rule and subset applies to each cluster of a mesh's log ({@link ClusterRules}), or null
 *                   when one set of settings applies to every cluster
 */
public record ReplayOutput(
        List<String> logs,
        String formatName,
        BadLines lines,
        List<LogReplay.GroupResult> results,
        List<LogReplay.GroupResult> compared,
        String compareLabel,
        List<String> compareSets,
        String compareFile,
        ComparedEventLog events,
        ComparedEventLog eventsB,
        LogClock clock,
        FixAdvice advice,
        ClusterRules rules) {

    /** A report with one set of settings for every cluster. */
    public ReplayOutput(
            List<String> logs,
            String formatName,
            BadLines lines,
            List<LogReplay.GroupResult> results,
            List<LogReplay.GroupResult> compared,
            String compareLabel,
            List<String> compareSets,
            String compareFile,
            ComparedEventLog events,
            ComparedEventLog eventsB,
            LogClock clock,
            FixAdvice advice) {
        this(
                logs,
                formatName,
                lines,
                results,
                compared,
                compareLabel,
                compareSets,
                compareFile,
                events,
                eventsB,
                clock,
                advice,
                null);
    }

    /** A report in seconds from the start and Envoy's field names (a section rendered apart, by a job). */
    public ReplayOutput(
            List<String> logs,
            String formatName,
            BadLines lines,
            List<LogReplay.GroupResult> results,
            List<LogReplay.GroupResult> compared,
            String compareLabel,
            List<String> compareSets,
            String compareFile,
            ComparedEventLog events,
            ComparedEventLog eventsB) {
        this(
                logs,
                formatName,
                lines,
                results,
                compared,
                compareLabel,
                compareSets,
                compareFile,
                events,
                eventsB,
                null,
                FixAdvice.ENVOY);
    }

    /** The skipped-lines summary: no upstream host (by flag), no response code, other clusters, bad. */
    public static String skipped(BadLines l) {
        String flags = l.noHostByFlag().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey().name() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        return String.format(Locale.ROOT, "%,d", l.noUpstreamHost()) + " without an upstream host"
                + (flags.isEmpty() ? "" : " (" + flags + ")") + ", " + l.noResponse() + " without a response code, "
                + l.otherCluster() + " of other clusters, " + l.bad() + " bad";
    }

    public String text(int maxEvents) {
        StringBuilder out = new StringBuilder(head(results.size()));
        for (int i = 0; i < results.size(); i++) {
            out.append(section(i, maxEvents));
        }
        out.append(
                ReplayTotalText.render(results.stream().map(ReplayOutput::tally).toList()));
        return out.toString();
    }

    /** One detector's figures for the total across detectors ({@link ReplayTotalText}). */
    public static ReplayTotalText.Tally tally(LogReplay.GroupResult g) {
        return ReplayTotalText.tally(g.result(), g.group().instance(), g.group().cluster());
    }

    /** The lines read and skipped and the number of detectors, as the text report begins. */
    public String head(int detectors) {
        return head(
                detectors,
                results.stream()
                        .mapToLong(g -> g.group().lastEpochNanos())
                        .max()
                        .orElse(Long.MIN_VALUE));
    }

    /** As {@link #head(int)}, the log's span ending at {@code lastEpochNanos} (the latest outcome of all). */
    public String head(int detectors, long lastEpochNanos) {
        StringBuilder out = new StringBuilder();
        out.append("outlier-lab replay: ")
                .append(String.join(", ", logs))
                .append(" (format ")
                .append(formatName)
                .append(")\n  lines        ")
                .append(String.format(Locale.ROOT, "%,d", lines.lines()))
                .append(" read; skipped ")
                .append(skipped(lines))
                .append('\n');
        for (BadLines.Bad b : lines.first()) {
            out.append("  bad line     ").append(b).append('\n');
        }
        if (clock != null && lastEpochNanos != Long.MIN_VALUE) {
            out.append(ReplayTotalText.span(clock, lastEpochNanos - clock.originEpochNanos()));
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
        out.append("\n== ")
                .append(g.group().label())
                .append(": ")
                .append(String.format(Locale.ROOT, "%,d", g.group().entries()))
                .append(" outcomes ==\n\n");
        String said = rules == null ? null : rules.said(g.group().cluster());
        if (said != null) {
            out.append(said).append("\n\n");
        }
        out.append(ReplayHostsText.recorded(g.result()));
        out.append(
                "\nWhat these settings predict (the lab's detector over the same requests: none of this happened)\n\n");
        out.append(TextReport.renderPrediction(
                g.result().run(),
                maxEvents,
                String.format(Locale.ROOT, "%,d", g.group().entries()) + " outcomes from the access log, "
                        + g.scenario().cluster().hosts().size() + " hosts",
                clock,
                rules == null ? advice : rules.advice(g.group().cluster(), advice)));
        out.append(ReplayHostsText.moved(g.result()));
        if (events != null) {
            out.append(
                    EventLogText.render(events.log().source(), events.results().get(i), "the lab", maxEvents));
        }
        if (compared != null) {
            out.append(ReplayComparisonText.render(
                    "the settings above",
                    g.result(),
                    compareLabel,
                    compared.get(i).result(),
                    maxEvents));
            if (eventsB != null) {
                out.append(EventLogText.render(
                        events.log().source(), eventsB.results().get(i), "the lab with B", maxEvents));
            }
        }
        return out.toString();
    }

    /** The CSV columns of {@link #csv}, in order. */
    static final List<String> CSV_COLUMNS = List.of(
            "cluster",
            "instance",
            "host",
            "requests",
            "failed",
            "ejections",
            "ejected_s",
            "ejected_ns",
            "requests_while_ejected",
            "failed_while_ejected");

    /**
     * One row per detector and host, with a header row: the host's requests and failures in the log, how often the
     * settings ejected it, for how long, and what it received meanwhile (the traffic ejection would have moved).
     */
    public String csv() {
        StringBuilder out = new StringBuilder(String.join(",", CSV_COLUMNS)).append("\n");
        for (LogReplay.GroupResult g : results) {
            Map<String, Long> ejections = ReplayHostsText.ejections(g.result());
            for (HostTraffic h : g.result().hosts()) {
                RunCsv.row(
                        out,
                        g.group().cluster(),
                        g.group().instance(),
                        h.host(),
                        h.requests(),
                        h.failed(),
                        ejections.getOrDefault(h.host(), 0L),
                        BigDecimal.valueOf(h.ejectedNanos(), 9)
                                .stripTrailingZeros()
                                .toPlainString(),
                        h.ejectedNanos(),
                        h.requestsWhileEjected(),
                        h.failedWhileEjected());
            }
        }
        return out.toString();
    }

    public String json() {
        List<JsonNode> detectors = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            detectors.add(sectionJson(i));
        }
        return json(detectors);
    }

    /** The JSON report with these detectors' entries ({@link #sectionJson}), in order. */
    public String json(List<JsonNode> sections) {
        ObjectNode root = JsonDocument.start("replay", JSON_VERSION);
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

    /**
     * The version of replay's JSON: 2 keeps what the log recorded ({@code recorded}) apart from what the settings
     * predict ({@code predicted}), where version 1 had one {@code run} whose summary mixed them.
     */
    static final int JSON_VERSION = 2;

    /** The JSON entry of detector {@code i}: what its log recorded, and what the settings predict. */
    public ObjectNode sectionJson(int i) {
        LogReplay.GroupResult g = results.get(i);
        ObjectNode d = ResultJson.mapper().createObjectNode();
        d.put("cluster", g.group().cluster());
        d.put("instance", g.group().instance());
        d.put("outcomes", g.group().entries());
        if (rules != null) {
            d.put("settings", rules.said(g.group().cluster()));
        }
        d.set("recorded", ReplayJson.recorded(g.result()));
        d.set("predicted", ReplayJson.predicted(g.result()));
        if (events != null) {
            d.set("event_log", EventLogJson.render(events.results().get(i)));
        }
        if (compared != null) {
            ObjectNode c = d.putObject("compared");
            if (compareFile != null) {
                c.put("file", compareFile);
            }
            c.set("sets", ResultJson.mapper().valueToTree(compareSets));
            c.set("predicted", ReplayJson.predicted(compared.get(i).result()));
            if (eventsB != null) {
                c.set("event_log", EventLogJson.render(eventsB.results().get(i)));
            }
        }
        return d;
    }
}
