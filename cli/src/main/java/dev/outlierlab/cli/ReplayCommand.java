package dev.outlierlab.cli;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.ReplayFormats;
import dev.outlierlab.report.format.ReplayFormats.ReplayView;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
            "",
            "Every decision with its numbers, per host the time ejected and the requests (and failures)"
                    + " that arrived meanwhile, Envoy's stats. One detector per cluster and proxy instance, as in"
                    + " Envoy.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab replay access.log --set outlier_detection.max_ejection_percent=34",
            "  outlier-lab replay access.log.1.gz access.log --one-instance \\",
            "    --envoy envoy.yaml --cluster search",
            "  kubectl logs deploy/web -c istio-proxy \\",
            "    | outlier-lab replay - --istio dr.yaml --hosts 6",
            "  outlier-lab replay app.jsonl --log-format json \\",
            "    --json-key upstream_host=upstream",
            "  outlier-lab replay access.log --envoy deployed.yaml --compare proposed.yaml",
            "  outlier-lab replay access.log --envoy envoy.yaml \\",
            "    --event-log outlier-events.log",
            "",
            "Exit status: 0 on success (also when the event log and the lab disagree: that is the"
                    + " report), 2 for bad input or more bad lines than --max-bad-lines."
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

    @Mixin
    EngineOption engine;

    /** The replay run elsewhere (a Flink job), or null: in this process, or {@code --engine flink} starts one. */
    private FleetEngine fleet;

    /** A replay that runs elsewhere, as a distributed job: it reads the logs and prints the same report. */
    public interface FleetEngine {
        /**
         * The inputs the logs name, for format detection (directories, globs, other file systems).
         *
         * @param hostCountGiven whether the number of hosts is given ({@code --hosts}, {@code cluster.hosts})
         *     rather than to be counted in the logs, which a stream cannot do before its lines arrive
         */
        List<LogInput> inputs(List<String> logs, boolean hostCountGiven);

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
        OptionRanges.refuseNegativeEvents(maxEvents);
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
        ReplayRun.refuseRepeatedLogs(logs);
        Integer launched = engine.launch(spec, fleet != null);
        if (launched != null) {
            return launched;
        }
        if (fleet != null) {
            format.require(ReplayFormats.REPLAY_ON_FLINK);
        }
        if (fleet != null && eventLog.isUsed()) {
            throw new InputException(
                    "--event-log: not with --engine flink; compare Envoy's event log with a local replay");
        }
        // --hosts with --istio or --envoy, or cluster.hosts in the scenario or a --set (the Istio log path's loaded
        // scenario counts the hosts of the log and so does not say hosts were given, though --hosts was)
        boolean hostCountGiven = clusterSource.hosts != null || base.hostsGiven() || loaded.hostsGiven();
        ReplayRun run = new ReplayRun(this, logCluster, loaded, second, hostCountGiven);
        if (fleet != null) {
            output.emit(spec, run.onFleet(fleet));
            return 0;
        }
        format.emit(output, spec, ReplayFormats.REPLAY, new ReplayView(run.local(), maxEvents));
        return 0;
    }
}
