package dev.outlierlab.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogFormat;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.accesslog.LogScan;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.accesslog.LogLineReader;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.DurationText;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.report.ReplayComparisonText;
import dev.outlierlab.report.ReplayHostsText;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.TextReport;
import dev.outlierlab.sim.HostTraffic;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code outlier-lab replay}: what outlier settings would have done to the traffic of real access logs. */
@Command(name = "replay",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Replay Envoy or Istio access logs: what these outlier settings would have done to that traffic.",
            "Every decision with its numbers, per host the time ejected and the requests (and failures) that",
            "arrived meanwhile, Envoy's stats. One detector per cluster and proxy instance, as in Envoy.",
            ""},
        footer = {
            "",
            "Examples:",
            "  outlier-lab replay access.log --set outlier_detection.max_ejection_percent=34",
            "  outlier-lab replay access.log.1.gz access.log --one-instance --envoy envoy.yaml --cluster search",
            "  kubectl logs deploy/web -c istio-proxy | outlier-lab replay - --istio dr.yaml --hosts 6",
            "  outlier-lab replay app.jsonl --log-format json --json-key upstream_host=upstream",
            "",
            "Exit status: 0 on success, 2 for bad input or more bad lines than --max-bad-lines."})
public final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "LOG",
            description = "Access-log files (plain or gzip), or - for standard input; several are merged by time.")
    List<String> logs;

    @Option(names = "--scenario", paramLabel = "FILE",
            description = "Scenario file for the settings (its traffic and faults are not used).")
    Path scenarioFile;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override one scenario key (repeatable).")
    List<String> sets = new ArrayList<>();

    @Mixin
    ClusterSourceOptions clusterSource;

    @Mixin
    LogFormatOptions logFormat;

    @Option(names = "--one-instance",
            description = "Several files are the logs of one proxy (e.g. rotated): one detector, not one per file.")
    boolean oneInstance;

    @Option(names = "--reorder-window", paramLabel = "DURATION", defaultValue = "2s",
            description = "How far a line may end before one above it (several workers write a log); default ${DEFAULT-VALUE}.")
    String reorderWindow;

    @Option(names = "--duration", paramLabel = "DURATION",
            description = "Run ticks to this time after the first outcome (default: through the last outcome's interval).")
    String duration;

    @Option(names = "--max-bad-lines", paramLabel = "N|P%", defaultValue = "1%",
            description = "More bad lines than this (a count, or a percentage of the lines) is exit 2; default ${DEFAULT-VALUE}.")
    String maxBadLines;

    @Option(names = "--compare-set", paramLabel = "KEY=VALUE",
            description = {"Also replay with these settings on top of the first ones (repeatable) and show both",
                "side by side with the decisions that differ, e.g. --compare-set outlier_detection.max_ejection_percent=34"})
    List<String> compareSets = new ArrayList<>();

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", description = "Output: text or json.")
    RunCommand.OutputFormat format;

    @Option(names = "--events", paramLabel = "N", defaultValue = "200",
            description = "Text output: show at most N decisions per detector (default ${DEFAULT-VALUE}).")
    int maxEvents;

    @Override
    public Integer call() {
        String logCluster = clusterSource.cluster;
        if (clusterSource.envoy == null && clusterSource.istio == null) {
            clusterSource.cluster = null;
        }
        ScenarioReader.Loaded loaded = clusterSource.apply(scenarioFile == null ? ScenarioReader.defaults(sets)
                : ScenarioReader.read(InputFiles.readText(scenarioFile), scenarioFile.toString(), sets));
        List<LogInput> inputs = new ArrayList<>();
        for (String log : logs) {
            inputs.add(LogInput.of(log, System.in));
        }
        LogFormat fmt = logFormat.resolve(inputs);
        long window = duration("--reorder-window", reorderWindow);
        Long durationNanos = duration == null ? null : duration("--duration", duration);
        ReadSettings settings = new ReadSettings(fmt, window, logCluster,
                inputs.size() > 1 && !oneInstance && logFormat.instanceField == null,
                loaded.hostsGiven() ? new HashSet<>(loaded.scenario().cluster().hosts()) : null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES, ReadSettings.DEFAULT_MAX_NAMES);
        Progress progress = Progress.onTerminal(spec.commandLine().getErr(), inputs);
        List<LogReplay.GroupResult> results;
        List<LogReplay.GroupResult> compared = null;
        LogScan.Result scan = LogScan.scan(inputs, settings, progress == null ? null : progress.reading());
        try (scan) {
            checkBadLines(scan.lines());
            if (scan.groups().isEmpty()) {
                throw new InputException(String.join(", ", logs) + ": no line reached an upstream host ("
                        + skipped(scan.lines()) + "); nothing to replay");
            }
            if (loaded.hostsGiven() && scan.groups().size() > 1) {
                throw new InputException("the log has " + scan.groups().size() + " detectors ("
                        + scan.groups().stream().map(ReplayGroup::label).collect(Collectors.joining("; "))
                        + ") but the hosts given are one cluster's: choose one with --cluster NAME");
            }
            results = LogReplay.replay(scan, g -> LogReplay.scenarioFor(loaded.scenario(), loaded.hostsGiven(), g,
                    scan.originEpochNanos(), durationNanos), RunOptions.DEFAULT);
            if (!compareSets.isEmpty()) {
                Scenario b = compared(loaded.scenario());
                compared = LogReplay.replay(scan, g -> LogReplay.scenarioFor(b, loaded.hostsGiven(), g,
                        scan.originEpochNanos(), durationNanos), RunOptions.DEFAULT);
            }
        } catch (TraceOrderException e) {
            throw new InputException("an outcome " + e.detail() + " (raise --duration)");
        } finally {
            if (progress != null) {
                progress.done();
            }
        }
        String text = format == RunCommand.OutputFormat.json ? json(results, compared, scan)
                : text(results, compared, scan, fmt);
        spec.commandLine().getOut().print(text);
        spec.commandLine().getOut().flush();
        return 0;
    }

    private void checkBadLines(BadLines lines) {
        long limit;
        String m = maxBadLines.strip();
        try {
            limit = m.endsWith("%")
                    ? (long) Math.floor(Double.parseDouble(m.substring(0, m.length() - 1)) / 100.0 * lines.lines())
                    : Long.parseLong(m);
        } catch (NumberFormatException e) {
            throw new InputException("--max-bad-lines: '" + maxBadLines + "' is not allowed; expected a count (e.g. 100) "
                    + "or a percentage of the lines (e.g. 1%)");
        }
        if (lines.bad() > limit) {
            StringBuilder sb = new StringBuilder(lines.bad() + " bad lines of " + lines.lines() + ", more than --max-bad-lines "
                    + maxBadLines + " (" + limit + "); the first " + lines.first().size() + ":");
            for (BadLines.Bad b : lines.first()) {
                sb.append("\n  ").append(b);
            }
            throw new InputException(sb.toString());
        }
    }

    private static String skipped(BadLines l) {
        String flags = l.noHostByFlag().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey().name() + " " + e.getValue()).collect(Collectors.joining(", "));
        return String.format(java.util.Locale.ROOT, "%,d", l.noUpstreamHost()) + " without an upstream host" + (flags.isEmpty() ? "" : " (" + flags + ")") + ", "
                + l.noResponse() + " without a response code, " + l.otherCluster() + " of other clusters, "
                + l.bad() + " bad";
    }

    /** The first settings with the --compare-set overrides on top. */
    private Scenario compared(Scenario base) {
        try {
            String text = ResultJson.mapper().writeValueAsString(ScenarioWriter.toMap(base));
            return ScenarioReader.read(text, "--compare-set", compareSets).scenario();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private String text(List<LogReplay.GroupResult> results, List<LogReplay.GroupResult> compared, LogScan.Result scan,
                        LogFormat fmt) {
        StringBuilder out = new StringBuilder();
        BadLines l = scan.lines();
        out.append("outlier-lab replay: ").append(String.join(", ", logs)).append(" (format ").append(fmt.name())
                .append(")\n  lines        ").append(String.format(java.util.Locale.ROOT, "%,d", l.lines())).append(" read; skipped ").append(skipped(l)).append('\n');
        for (BadLines.Bad b : l.first()) {
            out.append("  bad line     ").append(b).append('\n');
        }
        out.append("  detectors    ").append(results.size()).append(" (one per cluster and proxy instance)\n");
        for (LogReplay.GroupResult g : results) {
            out.append("\n== ").append(g.group().label()).append(": ")
                    .append(String.format(java.util.Locale.ROOT, "%,d", g.group().entries()))
                    .append(" outcomes ==\n\n");
            out.append(TextReport.render(g.result().run(), maxEvents, String.format(java.util.Locale.ROOT, "%,d",
                    g.group().entries()) + " outcomes from the access log, "
                    + g.scenario().cluster().hosts().size() + " hosts"));
            out.append(ReplayHostsText.render(g.result()));
            if (compared != null) {
                LogReplay.GroupResult b = compared.get(results.indexOf(g));
                out.append(ReplayComparisonText.render("the settings above", g.result(),
                        "those with " + String.join(" ", compareSets), b.result(), maxEvents));
            }
        }
        return out.toString();
    }

    private String json(List<LogReplay.GroupResult> results, List<LogReplay.GroupResult> compared, LogScan.Result scan) {
        ObjectNode root = ResultJson.mapper().createObjectNode();
        BadLines l = scan.lines();
        ObjectNode lines = root.putObject("lines");
        lines.put("read", l.lines());
        lines.put("bad", l.bad());
        lines.put("no_upstream_host", l.noUpstreamHost());
        lines.put("no_response", l.noResponse());
        lines.put("other_cluster", l.otherCluster());
        ArrayNode firstBad = lines.putArray("first_bad");
        for (BadLines.Bad b : l.first()) {
            firstBad.addObject().put("source", b.source()).put("line", b.line()).put("why", b.why());
        }
        ArrayNode detectors = root.putArray("detectors");
        for (LogReplay.GroupResult g : results) {
            ObjectNode d = detectors.addObject();
            d.put("cluster", g.group().cluster());
            d.put("instance", g.group().instance());
            d.put("outcomes", g.group().entries());
            d.set("run", ResultJson.toTree(g.result().run(), false));
            if (compared != null) {
                ObjectNode c = d.putObject("compared");
                c.set("sets", ResultJson.mapper().valueToTree(compareSets));
                c.set("run", ResultJson.toTree(compared.get(results.indexOf(g)).result().run(), false));
            }
            ArrayNode hosts = d.putArray("hosts");
            for (HostTraffic h : g.result().hosts()) {
                hosts.addObject().put("host", h.host()).put("requests", h.requests()).put("failed", h.failed())
                        .put("ejected_seconds", h.ejectedNanos() / 1e9).put("requests_while_ejected", h.requestsWhileEjected())
                        .put("failed_while_ejected", h.failedWhileEjected());
            }
        }
        return ResultJson.write(root);
    }

    private static long duration(String option, String text) {
        try {
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new InputException(option + ": '" + text + "' is not allowed; expected " + e.getMessage());
        }
    }
}
