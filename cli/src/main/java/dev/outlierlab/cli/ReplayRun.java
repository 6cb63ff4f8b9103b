package dev.outlierlab.cli;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogFormat;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.LogLineReader;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.accesslog.LogScan;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.ClusterRules;
import dev.outlierlab.report.LogClock;
import dev.outlierlab.report.ReplayOutput;
import dev.outlierlab.report.eventlog.ComparedEventLog;
import dev.outlierlab.report.eventlog.EventLogReader;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One {@code replay} as its options ask: the logs read in their format, replayed under the settings (and the
 * second settings of {@code --compare}) here or by a Flink job, with the checks on what the logs hold.
 */
final class ReplayRun {
    private final ReplayCommand c;
    private final String logCluster;
    private final ScenarioReader.Loaded loaded;
    private final CompareOptions.Compared second;
    private final Long durationNanos;
    private final boolean hostCountGiven;

    ReplayRun(
            ReplayCommand c,
            String logCluster,
            ScenarioReader.Loaded loaded,
            CompareOptions.Compared second,
            boolean hostCountGiven) {
        this.c = c;
        this.hostCountGiven = hostCountGiven;
        this.logCluster = logCluster;
        this.loaded = loaded;
        this.second = second;
        this.durationNanos = c.duration == null ? null : LogReadOptions.duration("--duration", c.duration);
    }

    /** How the logs are read: their format, reorder window, cluster, instances and the hosts given. */
    private ReadSettings settings(LogFormat fmt, List<LogInput> inputs) {
        return new ReadSettings(
                fmt,
                c.logRead.reorderWindowNanos(),
                logCluster,
                inputs.size() > 1 && !c.oneInstance && c.logFormat.instanceField == null,
                loaded.hostsGiven() ? new HashSet<>(loaded.scenario().cluster().hosts()) : null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES,
                ReadSettings.DEFAULT_MAX_NAMES);
    }

    /** The replay as a Flink job: the report it returns, rendered there. */
    String onFleet(ReplayCommand.FleetEngine fleet) {
        c.clusterSource.refuseClustersByLogOnFleet();
        List<LogInput> inputs = new ArrayList<>(fleet.inputs(c.logs, hostCountGiven));
        LogFormatOptions.Recipe recipe = c.logFormat.recipe(inputs);
        ReplayCommand.FleetRequest request = new ReplayCommand.FleetRequest(
                List.copyOf(c.logs),
                recipe,
                settings(recipe.compile(), inputs),
                loaded.scenario(),
                loaded.hostsGiven(),
                second == null ? null : second.scenario(),
                second != null && second.hostsGiven(),
                second == null ? null : second.label(),
                List.copyOf(c.compare.sets),
                c.compare.file == null ? null : c.compare.file.toString(),
                durationNanos,
                c.maxEvents,
                c.format.is("json"),
                c.engine.parallelism(),
                c.logRead.badLineCount(),
                c.logRead.badLinePercent(),
                c.clusterSource.advice);
        return fleet.replay(request, (lines, groups) -> {
            checkScan(lines, groups);
            if (second != null) {
                checkHosts(groups);
            }
        });
    }

    /** The replay in this process, with Envoy's event log compared when given. */
    ReplayOutput local() {
        EventLogReader.EventLog events = c.eventLog.isUsed() ? c.eventLog.read(c.logs, System.in) : null;
        List<LogInput> inputs = new ArrayList<>();
        for (String log : c.logs) {
            inputs.add(LogInput.of(log, System.in));
        }
        LogFormat fmt = c.logFormat.recipe(inputs).compile();
        ReadSettings settings = settings(fmt, inputs);
        Progress progress = Progress.onTerminal(c.spec.commandLine().getErr(), inputs);
        List<LogReplay.GroupResult> results;
        List<LogReplay.GroupResult> compared = null;
        LogScan.Result scan;
        ClusterRules rules = null;
        try {
            scan = LogScan.scan(
                    inputs,
                    settings,
                    progress == null ? null : progress.reading(),
                    c.logRead.badLineCount(),
                    c.logRead.isPercentage());
        } catch (BadLines.LimitReached e) {
            if (progress != null) {
                progress.done();
            }
            c.logRead.checkBadLines(e.lines());
            throw e;
        }
        try (scan) {
            checkScan(scan.lines(), scan.groups());
            rules = c.clusterSource.rulesFor(loaded.scenario(), scan.groups());
            ClusterRules byCluster = rules;
            results = replay(
                    scan,
                    g -> LogReplay.scenarioFor(
                            byCluster == null ? loaded.scenario() : byCluster.scenario(g.cluster()),
                            loaded.hostsGiven(),
                            g,
                            scan.originEpochNanos(),
                            durationNanos));
            if (second != null) {
                checkHosts(scan.groups());
                var secondOf = c.compare.perCluster(rules, c.clusterSource, loaded.scenario(), scan.groups());
                compared = replay(
                        scan,
                        g -> LogReplay.scenarioFor(
                                secondOf == null ? second.scenario() : secondOf.apply(g.cluster()),
                                secondOf == null ? second.hostsGiven() : loaded.hostsGiven(),
                                g,
                                scan.originEpochNanos(),
                                durationNanos));
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
            String envoyName = c.clusterSource.envoyClusterName;
            eventsA = c.eventLog.compare(events, results, scan.originEpochNanos(), logCluster, envoyName);
            if (compared != null) {
                eventsB = c.eventLog.compare(events, compared, scan.originEpochNanos(), logCluster, envoyName);
            }
        }
        return new ReplayOutput(
                c.logs,
                fmt.name(),
                scan.lines(),
                results,
                compared,
                second == null ? null : second.label(),
                c.compare.sets,
                c.compare.file == null ? null : c.compare.file.toString(),
                eventsA,
                eventsB,
                new LogClock(scan.originEpochNanos()),
                c.clusterSource.advice,
                rules);
    }

    private static List<LogReplay.GroupResult> replay(LogScan.Result scan, Function<ReplayGroup, Scenario> scenarios) {
        return LogReplay.inStableOrder(LogReplay.replay(scan, scenarios::apply, RunOptions.DEFAULT));
    }

    /** Refuses more bad lines than allowed, a log without detectors, and hosts given for several clusters (several proxy instances of one cluster are fine). */
    private void checkScan(BadLines lines, List<ReplayGroup> groups) {
        c.logRead.checkBadLines(lines);
        if (groups.isEmpty()) {
            throw new InputException(String.join(", ", c.logs) + ": no line reached an upstream host ("
                    + ReplayOutput.skipped(lines) + "); nothing to replay");
        }
        Integer bound = c.clusterSource.hasConfig() && !loaded.hostsGiven() ? c.clusterSource.hostBound() : null;
        for (ReplayGroup g : groups) {
            if (bound != null && g.hosts().size() > bound) {
                throw new InputException("--hosts " + bound + ": the log names "
                        + g.hosts().size() + " hosts for "
                        + g.label() + ", more than the " + bound + " the service has; raise --hosts or leave it out "
                        + "(the hosts then come from the log)");
            }
        }
        // several proxies of one cluster are several detectors of the same hosts: each replays the hosts given
        if (loaded.hostsGiven()
                && groups.stream().map(ReplayGroup::cluster).distinct().count() > 1) {
            throw new InputException("the log has " + groups.size() + " detectors ("
                    + groups.stream().map(ReplayGroup::label).collect(Collectors.joining("; "))
                    + ") but the hosts given are one cluster's: choose one with --cluster NAME");
        }
    }

    /**
     * A log named twice (the same file under two names, or {@code -} twice) would count every outcome twice as
     * one proxy's traffic: refused.
     */
    static void refuseRepeatedLogs(List<String> logs) {
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
            } catch (InvalidPathException e) {
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
        } catch (IOException e) {
            return false;
        }
    }

    /** The second settings' hosts, when they name them, must hold every host of the log. */
    private void checkHosts(List<ReplayGroup> groups) {
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
