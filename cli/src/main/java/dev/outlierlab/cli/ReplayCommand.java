package dev.outlierlab.cli;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogFormat;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.LogLineReader;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.accesslog.LogScan;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.ClusterRules;
import dev.outlierlab.report.LogClock;
import dev.outlierlab.report.ReplayOutput;
import dev.outlierlab.report.eventlog.ComparedEventLog;
import dev.outlierlab.report.eventlog.EventLogReader;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.ReplayFormats;
import dev.outlierlab.report.format.ReplayFormats.ReplayView;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code outlier-lab replay}: what outlier settings would have done to the traffic of real access logs. */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Replay Envoy or Istio access logs: what these outlier settings would have done to that traffic.",
            "Every decision with its numbers, per host the time ejected and the requests (and failures) that",
            "arrived meanwhile, Envoy's stats. One detector per cluster and proxy instance, as in Envoy.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab replay access.log --set outlier_detection.max_ejection_percent=34",
            "  outlier-lab replay access.log.1.gz access.log --one-instance --envoy envoy.yaml --cluster search",
            "  kubectl logs deploy/web -c istio-proxy | outlier-lab replay - --istio dr.yaml --hosts 6",
            "  outlier-lab replay app.jsonl --log-format json --json-key upstream_host=upstream",
            "  outlier-lab replay access.log --envoy deployed.yaml --compare proposed.yaml",
            "  outlier-lab replay access.log --envoy envoy.yaml --event-log outlier-events.log",
            "",
            "Exit status: 0 on success (also when the event log and the lab disagree: that is the report), 2 for",
            "bad input or more bad lines than --max-bad-lines."
        })
public final class ReplayCommand implements Callable<Integer>, FormatOption.Formatted {
    @Spec
    CommandSpec spec;

    @Mixin
    OutputOption output;

    @Parameters(
            arity = "1..*",
            paramLabel = "LOG",
            description = "Access-log files (plain or gzip), or - for standard input; several are merged by time.")
    List<String> logs;

    @Option(
            names = "--scenario",
            paramLabel = "FILE",
            description = "Scenario file for the settings (its traffic and faults are not used).")
    Path scenarioFile;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override one scenario key (repeatable).")
    List<String> sets = new ArrayList<>();

    @Mixin
    ClusterSourceOptions clusterSource;

    @Mixin
    LogFormatOptions logFormat;

    @Option(
            names = "--one-instance",
            description = "Several files are the logs of one proxy (e.g. rotated): one detector, not one per file.")
    boolean oneInstance;

    @Mixin
    LogReadOptions logRead;

    @Option(
            names = "--duration",
            paramLabel = "DURATION",
            description =
                    "Run ticks to this time after the first outcome (default: through the last outcome's interval).")
    String duration;

    @Mixin
    CompareOptions compare;

    @Mixin
    EventLogOptions eventLog;

    @Mixin
    FormatOption format;

    @Option(
            names = "--events",
            paramLabel = "N",
            defaultValue = "200",
            description = "Text output: show at most N decisions per detector (default ${DEFAULT-VALUE}).")
    int maxEvents;

    @Option(
            names = "--engine",
            paramLabel = "ENGINE",
            defaultValue = "local",
            description = {
                "local (default): replay in this process; flink: run the flink module's Flink job on",
                "Flink's local MiniCluster (the same report; see docs/flink.md)."
            })
    Engine engine;

    @Option(
            names = "--parallelism",
            paramLabel = "N",
            description = "--engine flink: the job's parallelism (default: the machine's cores).")
    Integer parallelism;

    /** Where a replay runs. */
    public enum Engine {
        local,
        flink
    }

    /** The replay run elsewhere (a Flink job), or null: in this process, or {@code --engine flink} starts one. */
    private FleetEngine fleet;

    /** A replay that runs elsewhere, as a distributed job: it reads the logs and prints the same report. */
    public interface FleetEngine {
        /** The inputs the logs name, for format detection (directories, globs, other file systems). */
        List<LogInput> inputs(List<String> logs);

        /** Replays and returns the report to print; {@code checks} before anything is rendered as complete. */
        String replay(FleetRequest request, FleetChecks checks);
    }

    /** What replay refuses once the logs are read: too many bad lines, no detector, hosts of the wrong groups. */
    public interface FleetChecks {
        void check(BadLines lines, List<ReplayGroup> groups);
    }

    /**
     * A replay as plain values (settings as scenario text, so that a job ships them to its workers).
     *
     * @param logs           the logs as named
     * @param format         how to make their format
     * @param settings       how they are read (its format is {@code format}'s)
     * @param first          the first settings' scenario
     * @param second         the second settings' ({@code --compare}), or null
     * @param compareLabel   how the report names the second settings
     * @param durationNanos  {@code --duration}, or null
     * @param maxBadLines    {@code --max-bad-lines N}: the count of bad lines past which a read stops, or
     *                       {@link Long#MAX_VALUE} for a percentage
     * @param maxBadLinesPercent {@code --max-bad-lines P%}: P (a read of mostly bad lines stops), or NaN for a count
     * @param advice         how fixes are said: in the fields of the input the settings came from (--istio, ...)
     */
    public record FleetRequest(
            List<String> logs,
            LogFormatOptions.Recipe format,
            ReadSettings settings,
            Scenario first,
            boolean firstHostsGiven,
            Scenario second,
            boolean secondHostsGiven,
            String compareLabel,
            List<String> compareSets,
            String compareFile,
            Long durationNanos,
            int maxEvents,
            boolean json,
            Integer parallelism,
            long maxBadLines,
            double maxBadLinesPercent,
            FixAdvice advice) {}

    /** This command with its replay run by {@code fleet} (the flink module's job). */
    public ReplayCommand runningOn(FleetEngine fleet) {
        this.fleet = fleet;
        return this;
    }

    @Override
    public Formats<ReplayView> formats() {
        return ReplayFormats.REPLAY;
    }

    @Override
    public Integer call() {
        String logCluster = clusterSource.logCluster();
        if (clusterSource.envoy == null && clusterSource.istio == null) {
            clusterSource.cluster = null;
        }
        clusterSource.forLog = true;
        ScenarioReader.Loaded base = scenarioFile == null
                ? ScenarioReader.defaults(sets)
                : ScenarioReader.read(InputFiles.readText(scenarioFile), scenarioFile.toString(), sets);
        ScenarioReader.Loaded loaded = clusterSource.apply(base, sets);
        if (loaded.scenario().traffic().clients() > 1) {
            throw new InputException(
                    "traffic.clients " + loaded.scenario().traffic().clients() + ": replay runs one"
                            + " detector per cluster and proxy instance of the log (each proxy is a caller already: see"
                            + " --instance-field); callers of the scenario are not allowed here");
        }
        CompareOptions.Compared second = compare.isUsed() ? compare.load(base, loaded, clusterSource) : null;
        refuseRepeatedLogs();
        if (engine == Engine.flink && fleet == null) {
            return FlinkLauncher.run(spec);
        }
        if (engine == Engine.local && parallelism != null) {
            throw new InputException("--parallelism " + parallelism + ": only with --engine flink");
        }
        if (fleet != null) {
            format.require(ReplayFormats.REPLAY_ON_FLINK);
        }
        if (fleet != null && eventLog.isUsed()) {
            throw new InputException(
                    "--event-log: not with --engine flink; compare Envoy's event log with a local replay");
        }
        EventLogReader.EventLog events = eventLog.isUsed() ? eventLog.read(logs, System.in) : null;
        List<LogInput> inputs = new ArrayList<>();
        if (fleet != null) {
            inputs.addAll(fleet.inputs(logs));
        } else {
            for (String log : logs) {
                inputs.add(LogInput.of(log, System.in));
            }
        }
        LogFormatOptions.Recipe recipe = logFormat.recipe(inputs);
        LogFormat fmt = recipe.compile();
        long window = logRead.reorderWindowNanos();
        Long durationNanos = duration == null ? null : LogReadOptions.duration("--duration", duration);
        ReadSettings settings = new ReadSettings(
                fmt,
                window,
                logCluster,
                inputs.size() > 1 && !oneInstance && logFormat.instanceField == null,
                loaded.hostsGiven() ? new HashSet<>(loaded.scenario().cluster().hosts()) : null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES,
                ReadSettings.DEFAULT_MAX_NAMES);
        if (fleet != null) {
            FleetRequest request = new FleetRequest(
                    List.copyOf(logs),
                    recipe,
                    settings,
                    loaded.scenario(),
                    loaded.hostsGiven(),
                    second == null ? null : second.scenario(),
                    second != null && second.hostsGiven(),
                    second == null ? null : second.label(),
                    List.copyOf(compare.sets),
                    compare.file == null ? null : compare.file.toString(),
                    durationNanos,
                    maxEvents,
                    format.is("json"),
                    parallelism,
                    logRead.badLineCount(),
                    logRead.badLinePercent(),
                    clusterSource.advice);
            String report = fleet.replay(request, (lines, groups) -> {
                checkScan(lines, groups, loaded);
                if (second != null) {
                    checkHosts(second, groups);
                }
            });
            output.emit(spec, report);
            return 0;
        }
        Progress progress = Progress.onTerminal(spec.commandLine().getErr(), inputs);
        List<LogReplay.GroupResult> results;
        List<LogReplay.GroupResult> compared = null;
        LogScan.Result scan;
        ClusterRules rules = null;
        try {
            scan = LogScan.scan(
                    inputs,
                    settings,
                    progress == null ? null : progress.reading(),
                    logRead.badLineCount(),
                    logRead.isPercentage());
        } catch (BadLines.LimitReached e) {
            if (progress != null) {
                progress.done();
            }
            logRead.checkBadLines(e.lines());
            throw e;
        }
        try (scan) {
            checkScan(scan.lines(), scan.groups(), loaded);
            rules = clusterSource.rulesFor(loaded.scenario(), scan.groups());
            ClusterRules byCluster = rules;
            results = LogReplay.inStableOrder(LogReplay.replay(
                    scan,
                    g -> LogReplay.scenarioFor(
                            byCluster == null ? loaded.scenario() : byCluster.scenario(g.cluster()),
                            loaded.hostsGiven(),
                            g,
                            scan.originEpochNanos(),
                            durationNanos),
                    RunOptions.DEFAULT));
            if (second != null) {
                checkHosts(second, scan.groups());
                compared = LogReplay.inStableOrder(LogReplay.replay(
                        scan,
                        g -> LogReplay.scenarioFor(
                                second.scenario(), second.hostsGiven(), g, scan.originEpochNanos(), durationNanos),
                        RunOptions.DEFAULT));
            }
        } catch (TraceOrderException e) {
            throw new InputException("an outcome " + e.detail() + " (raise --duration)");
        } finally {
            if (progress != null) {
                progress.done();
            }
        }
        ComparedEventLog eventsA = null;
        ComparedEventLog eventsB = null;
        if (events != null) {
            eventsA = eventLog.compare(
                    events, results, scan.originEpochNanos(), logCluster, clusterSource.envoyClusterName);
            if (compared != null) {
                eventsB = eventLog.compare(
                        events, compared, scan.originEpochNanos(), logCluster, clusterSource.envoyClusterName);
            }
        }
        ReplayOutput report = new ReplayOutput(
                logs,
                fmt.name(),
                scan.lines(),
                results,
                compared,
                second == null ? null : second.label(),
                compare.sets,
                compare.file == null ? null : compare.file.toString(),
                eventsA,
                eventsB,
                new LogClock(scan.originEpochNanos()),
                clusterSource.advice,
                rules);
        format.emit(output, spec, ReplayFormats.REPLAY, new ReplayView(report, maxEvents));
        return 0;
    }

    /** Refuses more bad lines than allowed, a log without detectors, and hosts given for several clusters. */
    private void checkScan(BadLines lines, List<ReplayGroup> groups, ScenarioReader.Loaded loaded) {
        logRead.checkBadLines(lines);
        if (groups.isEmpty()) {
            throw new InputException(String.join(", ", logs) + ": no line reached an upstream host ("
                    + ReplayOutput.skipped(lines) + "); nothing to replay");
        }
        Integer bound = clusterSource.hasConfig() && !loaded.hostsGiven() ? clusterSource.hostBound() : null;
        for (ReplayGroup g : groups) {
            if (bound != null && g.hosts().size() > bound) {
                throw new InputException("--hosts " + bound + ": the log names "
                        + g.hosts().size() + " hosts for "
                        + g.label() + ", more than the " + bound + " the service has; raise --hosts or leave it out "
                        + "(the hosts then come from the log)");
            }
        }
        if (loaded.hostsGiven() && groups.size() > 1) {
            throw new InputException("the log has " + groups.size() + " detectors ("
                    + groups.stream().map(ReplayGroup::label).collect(Collectors.joining("; "))
                    + ") but the hosts given are one cluster's: choose one with --cluster NAME");
        }
    }

    /**
     * A log named twice (the same file under two names, or {@code -} twice) would count every outcome twice as
     * one proxy's traffic: refused.
     */
    private void refuseRepeatedLogs() {
        List<Path> seen = new ArrayList<>();
        List<String> names = new ArrayList<>();
        boolean stdin = false;
        for (String log : logs) {
            if (log.equals(InputFiles.STDIN)) {
                if (stdin) {
                    throw new InputException("-: standard input is named twice; it can be read only once");
                }
                stdin = true;
                continue;
            }
            Path path;
            try {
                path = Path.of(log);
            } catch (java.nio.file.InvalidPathException e) {
                continue; // reported when the log is opened
            }
            for (int i = 0; i < seen.size(); i++) {
                if (sameFile(seen.get(i), path)) {
                    throw new InputException(log + ": the same log as " + names.get(i) + "; each log may be given once "
                            + "(its outcomes would count twice)");
                }
            }
            seen.add(path);
            names.add(log);
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.exists(b)
                    ? Files.isSameFile(a, b)
                    : a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The second settings' hosts, when they name them, must hold every host of the log. */
    private void checkHosts(CompareOptions.Compared second, List<ReplayGroup> groups) {
        if (!second.hostsGiven()) {
            return;
        }
        Set<String> hosts = new HashSet<>(second.scenario().cluster().hosts());
        for (ReplayGroup g : groups) {
            for (String h : g.hosts()) {
                if (!hosts.contains(h)) {
                    throw new InputException(
                            "--compare: the log's host " + h + " is not one of the second settings' " + hosts.size()
                                    + " hosts (" + second.label() + "); both settings must have the log's hosts");
                }
            }
        }
    }
}
