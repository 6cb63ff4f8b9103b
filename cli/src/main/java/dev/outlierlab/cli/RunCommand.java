package dev.outlierlab.cli;

import dev.outlierlab.accesslog.AccessLogWriter;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.scenario.EnvoyScenarioFormat;
import dev.outlierlab.config.scenario.GrpcScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.trace.TraceReader;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.EnvoyEventLog;
import dev.outlierlab.report.EnvoyStats;
import dev.outlierlab.report.HingesText;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.TextReport;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.TraceReplay;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.hinges.PatternContrast;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code outlier-lab run}: simulates a scenario (or replays a trace) and reports every decision. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Simulate a scenario (or replay a trace) under Envoy's, gRPC's, the gateway's, nginx's, HAProxy's or Caddy's rules.",
            "Reports detections, ejections, refusals by the ejection cap and returns, with the numbers behind each.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab run",
            "      the default scenario: 21 detections, every one refused by the 10 %% cap",
            "  outlier-lab run --set outlier_detection.max_ejection_percent=34",
            "      the cap admits one host of six: ejections at 40 s, 80 s and 150 s",
            "  outlier-lab run scenario.yaml --format json > result.json",
            "  outlier-lab run --envoy envoy.yaml --cluster search",
            "      the scenario's traffic and faults against a real Envoy cluster's settings and hosts",
            "  outlier-lab run --istio destination-rule.yaml --hosts 6",
            "  outlier-lab run --access-log access.log && outlier-lab replay access.log",
            "      write the synthetic traffic as Envoy's access log, and replay it: the same decisions",
            "  outlier-lab run --example overload-cap-100 --series signals.csv",
            "      a named story (see --list-examples), with the signals per second as CSV",
            "  outlier-lab run --trace-in outcomes.jsonl --set duration=60s",
            "      replay observed outcomes, one JSON object per line:",
            "      {\"time\": 12.5, \"host\": \"host-1\", \"code\": 503}",
            "      {\"time_ns\": 12500000001, \"host\": \"host-1\", \"result\": \"timeout\"}",
            "  outlier-lab run gateway.yaml --set gateway.mode=shadow --stages stages.jsonl",
            "      a profile: gateway scenario (the seed's API-gateway stage, docs/gateway.md); stages as JSON lines",
            "",
            "Exit status: 0 on success, 2 for bad input (the message names the key, value and line)."
        })
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    OutputOption output;

    @Mixin
    InputOptions input;

    @Mixin
    WorkOptions work;

    @Mixin
    ServerConfigOptions servers;

    @Option(
            names = "--format",
            paramLabel = "FORMAT",
            defaultValue = "text",
            description = {
                "Output: text (default), json (the lab-model contract: scenario, summary, stats, events)",
                "or csv (one row per decision with its numbers; see docs/output-formats.md)."
            })
    OutputFormat format;

    @Option(
            names = "--trace-in",
            paramLabel = "FILE",
            description = {
                "Replay an outcome trace (JSON lines) instead of synthetic traffic. The scenario's",
                "cluster, outlier settings and duration apply; its traffic and faults do not. Without",
                "cluster.hosts in the scenario, the hosts are the trace's, in order of first appearance.",
                "FILE may be - (standard input) or a pipe; it is read once."
            })
    Path traceIn;

    @Option(
            names = "--access-log",
            paramLabel = "FILE",
            description = {
                "Also write the synthetic traffic as an access log, one line per request, for",
                "'outlier-lab replay' (start times with nanoseconds, so the replay is exact)."
            })
    Path accessLog;

    @Option(
            names = "--access-log-format",
            paramLabel = "FORMAT",
            defaultValue = "envoy",
            description = "Format of --access-log: envoy (default), istio or json.")
    AccessLogWriter.Format accessLogFormat;

    @Option(
            names = "--series",
            paramLabel = "FILE",
            description = {
                "Also write the operators' signals per second as CSV: membership_total,",
                "membership_healthy, health_check_healthy, ejections_active, ejections_enforced, requests, failed, panic."
            })
    Path seriesFile;

    @Option(
            names = "--signals",
            description =
                    "JSON output: include the signals object (it is there anyway with the load keys or --example).")
    boolean signals;

    @Option(names = "--list-examples", description = "List the named example scenarios (for --example) and exit.")
    boolean listExamples;

    @Option(
            names = "--stages",
            paramLabel = "FILE",
            description = {
                "profile: gateway only: write every recorded stage (eject, kept_all, would_eject) to FILE",
                "as JSON lines: time, request, process, mode, action, endpoints."
            })
    Path stagesFile;

    @Option(
            names = "--events",
            paramLabel = "N",
            defaultValue = "200",
            description = "Text output: show at most N decisions (default ${DEFAULT-VALUE}); JSON has them all.")
    int maxEvents;

    @Option(
            names = "--event-log",
            paramLabel = "FILE",
            description = {
                "Also write Envoy's own outlier event log (event_log_path): JSON lines of",
                "envoy.data.cluster.v3.OutlierDetectionEvent, with Envoy's quirks (no line for an overflow,",
                "returns typed CONSECUTIVE_5XX, success rates truncated). See docs/envoy-fidelity.md."
            })
    Path eventLog;

    @Option(
            names = "--start-time",
            paramLabel = "INSTANT",
            description = {
                "Wall-clock time of simulated time 0 in the event log and the access log",
                "(default 2026-01-01T00:00:00Z with --access-log, else 1970-01-01T00:00:00Z)."
            })
    String startTime;

    @Option(
            names = "--profile",
            paramLabel = "LIST",
            description = {
                "Run under another profile: grpc (grpc-java's outlier detection, docs/grpc.md), or several",
                "side by side with one comparison table, e.g. --profile envoy,grpc or envoy,grpc,gateway."
            })
    String profile;

    @Option(
            names = "--stats",
            paramLabel = "FORMAT",
            description = {
                "Print only the final cluster.NAME.outlier_detection.* statistics as Envoy's admin",
                "interface does: text (/stats) or prometheus (/stats/prometheus)."
            })
    StatsFormat stats;

    /** The longest run (estimated) that the text report repeats with the other fault pattern. */
    static final double MAX_CONTRAST_SECONDS = 5;

    /** The decisions the text report keeps to collapse into its rows (the rest are counted). */
    static final int TEXT_KEPT_DECISIONS = 10_000;

    /** Output formats of {@code run}. */
    enum OutputFormat {
        text,
        json,
        csv
    }

    /** Envoy admin formats for {@code --stats}. */
    enum StatsFormat {
        text,
        prometheus
    }

    @Override
    public Integer call() {
        if (listExamples) {
            for (dev.outlierlab.config.scenario.Examples.Example e : dev.outlierlab.config.scenario.Examples.all()) {
                spec.commandLine().getOut().printf("%-28s %s%n", e.name(), e.summary());
            }
            spec.commandLine().getOut().flush();
            return 0;
        }
        if (maxEvents < 0) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "--events: " + maxEvents + " is not allowed; give 0 (counts only) or more decisions to show");
        }
        Instant start;
        try {
            start = startTime != null
                    ? Instant.parse(startTime)
                    : Instant.ofEpochSecond(accessLog != null ? AccessLogWriter.EPOCH_BASE_SECONDS : 0);
        } catch (DateTimeParseException e) {
            throw new InputException("--start-time: \"" + startTime + "\" is not allowed; expected an instant such as "
                    + "2026-11-30T12:00:00Z");
        }
        if (start.isBefore(Instant.EPOCH) || start.isAfter(Instant.parse("2200-01-01T00:00:00Z"))) {
            throw new InputException("--start-time: \"" + startTime + "\" is not allowed; expected an instant from "
                    + "1970-01-01T00:00:00Z to 2200-01-01T00:00:00Z");
        }
        if (servers.isUsed()) {
            output.emit(
                    spec,
                    servers.run(
                            input,
                            new RunRequest(format.name(), maxEvents, stagesFile, optionsGiven(), work)
                                    .withTrace(traceIn)));
            return 0;
        }
        ScenarioReader.Profiled profiled = input.loadProfiled();
        if (profile != null || input.givesGrpcSettings()) {
            return runProfiles(profiled);
        }
        Optional<ProfileRunner> runner = profiled.profile().facet(ProfileRunner.class);
        if (runner.isPresent() || !profiled.profile().capabilities().contains(Capability.ENVOY_REPORT)) {
            RunRequest request =
                    new RunRequest(format.name(), maxEvents, stagesFile, optionsGiven(), work).withTrace(traceIn);
            ProfileRunner r = runner.orElseThrow(() -> new InputException("run: profile " + profiled.name()
                    + " has no runner; run takes " + Profiles.namesWith(ProfileRunner.class) + " or envoy"));
            r.refuse(request, profiled);
            output.emit(spec, r.run(input.resolve(), request));
            return 0;
        }
        if (stagesFile != null) {
            throw new InputException("--stages " + stagesFile + ": stage records belong to profile: gateway; this "
                    + "scenario's profile is envoy");
        }
        ScenarioReader.Loaded loaded = input.applyCluster(profiled);
        // text shows the first --events decisions and counts the rest; JSON has them all
        // text collapses identical decisions into rows, so it keeps more decisions than it shows rows
        RunOptions options = format != OutputFormat.text
                ? RunOptions.DEFAULT
                : RunOptions.DEFAULT.keepingEvents(Math.max(maxEvents, TEXT_KEPT_DECISIONS));
        RunResult result;
        String source = null;
        String hinges = null;
        if (traceIn == null) {
            // the text report says whether the other fault pattern changes the decisions: a second run, when short
            WorkEstimate one = WorkEstimate.of(loaded.scenario());
            boolean contrast = format == OutputFormat.text
                    && stats == null
                    && PatternContrast.swapped(loaded.scenario()) != null
                    && WorkOptions.seconds(one) <= MAX_CONTRAST_SECONDS;
            work.check(WorkEstimate.ofRun(loaded.scenario(), options, accessLog != null), "this run");
            WorkOptions.Progress progress =
                    WorkOptions.progress("run", contrast ? one.plus(one).units() : one.units());
            RunOptions watched = options.watchedBy(progress.next(one.units()));
            result = accessLog == null
                    ? Simulation.run(loaded.scenario(), watched)
                    : runWritingLog(loaded.scenario(), watched, start);
            if (format == OutputFormat.text && stats == null) {
                PatternContrast other = contrast
                        ? PatternContrast.of(result, progress.next(one.units()))
                        : PatternContrast.planned(result.scenario());
                hinges = HingesText.render(result, other, commandText());
            }
            progress.finish();
        } else {
            result = replay(loaded, options);
            source = "replayed from " + traceIn + " (" + result.summary().requests() + " records)";
        }
        String cluster = result.scenario().name();
        if (eventLog != null) {
            // the event log names the cluster as the access log of the same run does (Istio's outbound|80||NAME)
            String logged = accessLog == null ? null : AccessLogWriter.upstreamCluster(accessLogFormat, cluster);
            OutputFiles.writeText(
                    eventLog, "--event-log", EnvoyEventLog.render(result, logged == null ? cluster : logged, start));
        }
        boolean withSignals = signals
                || input.scenario.example != null
                || result.scenario().load().isShaped();
        String text;
        if (stats != null) {
            text = stats == StatsFormat.text
                    ? EnvoyStats.text(result.stats(), cluster)
                    : EnvoyStats.prometheus(result.stats(), cluster);
        } else {
            text = switch (format) {
                case json -> ResultJson.toJson(result, false, withSignals);
                case csv -> dev.outlierlab.report.RunCsv.render(result);
                case text -> TextReport.render(result, maxEvents, source, hinges, input.clusterSource.advice);
            };
        }
        if (seriesFile != null) {
            OutputFiles.writeText(seriesFile, "--series", dev.outlierlab.report.SignalsReport.csv(result));
        }
        output.emit(spec, text);
        return 0;
    }

    /** The options given that only some profiles take, each with the capability it needs. */
    private List<RunRequest.Used> optionsGiven() {
        List<RunRequest.Used> used = new ArrayList<>();
        if (traceIn != null) {
            used.add(new RunRequest.Used("--trace-in", Capability.TRACE_REPLAY));
        }
        if (input.clusterSource.isUsed()) {
            used.add(new RunRequest.Used("--envoy/--istio", Capability.CLUSTER_FROM_CONFIG));
        }
        if (accessLog != null) {
            used.add(new RunRequest.Used("--access-log", Capability.ACCESS_LOG));
        }
        if (eventLog != null) {
            used.add(new RunRequest.Used("--event-log", Capability.EVENT_LOG));
        }
        if (stats != null) {
            used.add(new RunRequest.Used("--stats", Capability.ADMIN_STATS));
        }
        if (seriesFile != null) {
            used.add(new RunRequest.Used("--series", Capability.SIGNAL_SERIES));
        }
        if (stagesFile != null) {
            used.add(new RunRequest.Used("--stages", Capability.STAGE_RECORDS));
        }
        if (format == OutputFormat.csv) {
            used.add(new RunRequest.Used("--format csv", Capability.DECISION_CSV));
        }
        return used;
    }

    /** Several profiles side by side ({@link ProfileRun}), or one chosen by --profile or gRPC's settings. */
    private Integer runProfiles(ScenarioReader.Profiled profiled) {
        List<String> profiles = profile != null ? ProfileRun.profiles(profile) : List.of(GrpcScenarioFormat.NAME);
        if (!profiled.profile().capabilities().contains(Capability.COMPARISON_BASE)) {
            throw new InputException("--profile, --service-config and --grpc-implementation take a profile: "
                    + Profiles.orList(Profiles.all().stream()
                            .filter(p -> p.can(Capability.COMPARISON_BASE))
                            .map(p -> "profile: " + p.name())
                            .toList())
                    + " scenario; this scenario's profile is " + profiled.name());
        }
        if (traceIn != null
                || accessLog != null
                || eventLog != null
                || stats != null
                || stagesFile != null
                || seriesFile != null) {
            throw new InputException(
                    "--trace-in, --access-log, --event-log, --stats, --series and --stages are for one "
                            + "run of profile envoy (or gateway); leave them out with --profile or a profile: grpc scenario");
        }
        if (profiles.equals(List.of(EnvoyScenarioFormat.NAME))) {
            throw new InputException("--profile envoy: the scenario runs under Envoy without --profile; use --profile "
                    + "grpc, or envoy,grpc to compare");
        }
        if (input.givesGrpcSettings() && !profiles.contains(GrpcScenarioFormat.NAME)) {
            throw new InputException("--service-config and --grpc-implementation are gRPC's; add grpc to --profile");
        }
        ScenarioReader.Loaded loaded = input.applyCluster(profiled);
        ScenarioReader.Profiled given = new ScenarioReader.Profiled(
                Profiles.find(GrpcScenarioFormat.NAME).orElseThrow(), loaded, input.grpcSettings(profiled, loaded));
        if (profiles.size() == 1) {
            RunRequest request = new RunRequest(format.name(), maxEvents, null, List.of(), work);
            output.emit(
                    spec,
                    Profiles.facet(
                                    profiles.get(0),
                                    ProfileRunner.class,
                                    names -> new InputException(
                                            "--profile " + profiles.get(0) + ": runs alone only with " + names))
                            .run(given, request));
            return 0;
        }
        if (format != OutputFormat.text) {
            throw new InputException("--format " + format + ": a comparison of profiles is text; run each profile"
                    + " with --format " + format + " for its " + format.name().toUpperCase(java.util.Locale.ROOT));
        }
        output.emit(spec, ProfileRun.compare(profiles, given, work));
        return 0;
    }

    /** This command as typed, for the report's "see" lines: {@code ./outlier-lab run ARGS}, quoted for a shell. */
    private String commandText() {
        StringBuilder b = new StringBuilder("./outlier-lab run");
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            if (arg.equals("run") && b.length() == "./outlier-lab run".length()) {
                continue;
            }
            b.append(' ')
                    .append(arg.matches("[A-Za-z0-9_./=:,\\[\\]@%+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'");
        }
        return b.toString();
    }

    private RunResult runWritingLog(Scenario s, RunOptions options, Instant start) {
        return OutputFiles.write(
                accessLog,
                "--access-log",
                w -> Simulation.run(
                        s,
                        options,
                        new AccessLogWriter(
                                w,
                                accessLogFormat,
                                s.cluster().hosts(),
                                s.name(),
                                start.getEpochSecond() * 1_000_000_000L + start.getNano())));
    }

    private RunResult replay(ScenarioReader.Loaded loaded, RunOptions options) {
        Scenario s = loaded.scenario();
        if (s.traffic().clients() > 1) {
            throw new InputException(
                    "--trace-in " + traceIn + ": a trace is what one detector saw, so it replays as one"
                            + " caller; traffic.clients " + s.traffic().clients()
                            + " is not allowed with it (give each caller's"
                            + " trace its own run)");
        }
        Path trace = traceIn;
        if (!loaded.hostsGiven()) {
            // the host names come from a first pass; a pipe is copied once so that the second pass sees it all
            if (!InputFiles.rereadable(trace)) {
                trace = InputFiles.spool(traceIn);
            }
            List<String> names;
            try (BoundedLineReader first = InputFiles.open(trace)) {
                names = TraceReader.hostNames(first, traceIn.toString());
            }
            s = new Scenario(
                    s.name(),
                    s.durationNanos(),
                    s.seed(),
                    new ClusterSpec(names, s.cluster().panicThresholdPercent()),
                    s.traffic(),
                    List.of(),
                    s.outlierDetection(),
                    s.healthChecks(),
                    s.envoyVersion());
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < s.cluster().hosts().size(); i++) {
            index.put(s.cluster().hosts().get(i), i);
        }
        // the records are read as they replay, so only the ticks and health checks can be estimated
        work.check(WorkEstimate.ofReplay(s, 0), "this replay");
        try (BoundedLineReader reader = InputFiles.open(trace)) {
            return TraceReplay.run(s, TraceReader.records(reader, traceIn.toString(), index), options);
        } catch (dev.outlierlab.sim.trace.TraceOrderException e) {
            throw new dev.outlierlab.config.InputException(traceIn + ":" + e.line() + ": " + e.detail());
        }
    }
}
