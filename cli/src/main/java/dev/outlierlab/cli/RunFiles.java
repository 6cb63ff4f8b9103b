package dev.outlierlab.cli;

import dev.outlierlab.accesslog.AccessLogWriter;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.trace.TraceReader;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.EnvoyEventLog;
import dev.outlierlab.report.SignalsReport;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.TraceReplay;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceOrderException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The files {@code run} reads and writes besides its report: an outcome trace to replay, Envoy's access log and
 * outlier event log of the run, the operators' signals per second, the gateway's stage records; and the wall-clock
 * time they start at.
 */
public final class RunFiles {
    @Option(
            names = "--trace-in",
            paramLabel = "FILE",
            description = "Replay an outcome trace (JSON lines) instead of synthetic traffic. The scenario's cluster,"
                    + " outlier settings and duration apply; its traffic and faults do not. Without cluster.hosts"
                    + " in the scenario, the hosts are the trace's, in order of first appearance. FILE may be -"
                    + " (standard input) or a pipe; it is read once.")
    Path traceIn;

    @Option(
            names = "--access-log",
            paramLabel = "FILE",
            description = "Also write the synthetic traffic as an access log, one line per request, for 'outlier-lab"
                    + " replay' (start times with nanoseconds, so the replay is exact).")
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
            description = "Also write the operators' signals per second as CSV: membership_total, membership_healthy,"
                    + " health_check_healthy, ejections_active, ejections_enforced, requests, failed, panic.")
    Path seriesFile;

    @Option(
            names = "--stages",
            paramLabel = "FILE",
            description = "profile: gateway only: write every recorded stage (eject, kept_all, would_eject) to FILE as"
                    + " JSON lines: time, request, process, mode, action, endpoints.")
    Path stagesFile;

    @Option(
            names = "--event-log",
            paramLabel = "FILE",
            description = "Also write Envoy's own outlier event log (event_log_path): JSON lines of"
                    + " envoy.data.cluster.v3.OutlierDetectionEvent, with Envoy's quirks (no line for an overflow,"
                    + " returns typed CONSECUTIVE_5XX, success rates truncated). See docs/envoy-fidelity.md.")
    Path eventLog;

    @Option(
            names = "--start-time",
            paramLabel = "INSTANT",
            description = "Wall-clock time of simulated time 0 in the event log and the access log (default"
                    + " 2026-01-01T00:00:00Z with --access-log, else 1970-01-01T00:00:00Z).")
    String startTime;

    /** The wall-clock time of simulated time 0: {@code --start-time}, or its default. */
    Instant start() {
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
        return start;
    }

    /** Refuses {@code --stages} for a profile without stage records (the Envoy report has none). */
    void refuseStages(String profile) {
        if (stagesFile != null) {
            throw new InputException("--stages " + stagesFile + ": stage records belong to profile: "
                    + Profiles.namesThatCan(Capability.STAGE_RECORDS) + "; this scenario's profile is " + profile);
        }
    }

    /** Whether any file of one Envoy run is asked for (none of them goes with a comparison of profiles). */
    boolean isUsed() {
        return traceIn != null || accessLog != null || eventLog != null || stagesFile != null || seriesFile != null;
    }

    /**
     * The options given that only some profiles take, each with the capability it needs, in the order of the help:
     * these files, and the cluster options, {@code --stats} and {@code --format csv} when given.
     */
    List<RunRequest.Used> used(boolean clusterFromConfig, boolean stats, boolean csv) {
        List<RunRequest.Used> used = new ArrayList<>();
        if (traceIn != null) {
            used.add(new RunRequest.Used("--trace-in", Capability.TRACE_REPLAY));
        }
        if (clusterFromConfig) {
            used.add(new RunRequest.Used("--envoy/--istio", Capability.CLUSTER_FROM_CONFIG));
        }
        if (accessLog != null) {
            used.add(new RunRequest.Used("--access-log", Capability.ACCESS_LOG));
        }
        if (eventLog != null) {
            used.add(new RunRequest.Used("--event-log", Capability.EVENT_LOG));
        }
        if (stats) {
            used.add(new RunRequest.Used("--stats", Capability.ADMIN_STATS));
        }
        if (seriesFile != null) {
            used.add(new RunRequest.Used("--series", Capability.SIGNAL_SERIES));
        }
        if (stagesFile != null) {
            used.add(new RunRequest.Used("--stages", Capability.STAGE_RECORDS));
        }
        if (csv) {
            used.add(new RunRequest.Used("--format csv", Capability.DECISION_CSV));
        }
        return used;
    }

    /** Runs the scenario, writing its traffic as an access log when asked. */
    RunResult simulate(Scenario s, RunOptions options, Instant start) {
        if (accessLog == null) {
            return Simulation.run(s, options);
        }
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

    /** Writes the event log and the signals of {@code result} when asked. */
    void writeAfter(RunResult result, Instant start) {
        String cluster = result.scenario().name();
        if (eventLog != null) {
            // the event log names the cluster as the access log of the same run does (Istio's outbound|80||NAME)
            String logged = accessLog == null ? null : AccessLogWriter.upstreamCluster(accessLogFormat, cluster);
            OutputFiles.writeText(
                    eventLog, "--event-log", EnvoyEventLog.render(result, logged == null ? cluster : logged, start));
        }
        if (seriesFile != null) {
            OutputFiles.writeText(seriesFile, "--series", SignalsReport.csv(result));
        }
    }

    /**
     * Replays the {@code --trace-in} trace over the scenario's cluster and settings; without hosts in the scenario,
     * the hosts are the trace's, in order of first appearance (a pipe is copied once for that first pass).
     */
    RunResult replay(ScenarioReader.Loaded loaded, RunOptions options, WorkOptions work) {
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
            if (!InputFiles.rereadable(trace)) {
                trace = InputFiles.spool(traceIn);
            }
            List<String> names;
            try (BoundedLineReader first = InputFiles.open(trace)) {
                names = TraceReader.hostNames(first, traceIn.toString());
            }
            s = s.toBuilder()
                    .cluster(new ClusterSpec(names, s.cluster().panicThresholdPercent()))
                    .faults(List.of())
                    .load(LoadSpec.NONE)
                    .routing(RoutingSpec.NONE)
                    .build();
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < s.cluster().hosts().size(); i++) {
            index.put(s.cluster().hosts().get(i), i);
        }
        // the records are read as they replay, so only the ticks and health checks can be estimated
        work.check(WorkEstimate.ofReplay(s, 0), "this replay");
        try (BoundedLineReader reader = InputFiles.open(trace)) {
            return TraceReplay.run(s, TraceReader.records(reader, traceIn.toString(), index), options);
        } catch (TraceOrderException e) {
            throw new InputException(traceIn + ":" + e.line() + ": " + e.detail());
        }
    }
}
