package dev.outlierlab.cli;

import dev.outlierlab.accesslog.LogFormat;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.LogLineReader;
import dev.outlierlab.accesslog.LogScan;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.report.TextReport;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.DefaultSuite;
import dev.outlierlab.tune.RunExecutor;
import dev.outlierlab.tune.SuiteFile;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneJson;
import dev.outlierlab.tune.TuneRequest;
import dev.outlierlab.tune.TuneResult;
import dev.outlierlab.tune.TuneText;
import dev.outlierlab.tune.Tuner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code outlier-lab tune}: which outlier settings catch a bad host without ejecting too many, for this cluster's
 * size, traffic and callers. A search over what the target can express, scored on a suite of failure scenarios
 * ({@link Tuner}); the recommendation comes in the target's own format, checked by {@code check}'s rules.
 */
@Command(name = "tune",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Find outlier-detection settings that catch a bad host without ejecting too many, for this cluster: a search",
            "over what the target can express, scored on a suite of failure scenarios sized to the cluster (one host",
            "partly failing or dead, several hosts, a shared outage, an overload, a noisy pool, a slow host, flapping, a",
            "rolling restart, bad requests, clusters of two and three), each against its correct action.",
            "Prints the current settings' scorecard, the front of benefit against harm, one recommendation in the",
            "target's format with a diff, why, and what no setting can catch here.",
            ""},
        footer = {
            "",
            "Examples:",
            "  outlier-lab tune --hosts 6 --rps 600",
            "  outlier-lab tune --hosts 6 --rps 600 --clients 50",
            "  outlier-lab tune --from destination-rule.yaml --hosts 6 --rps 600",
            "  outlier-lab tune --istio destination-rule.yaml --hosts 6 --rps 600",
            "  outlier-lab tune scenario.yaml --set traffic.clients=50",
            "  outlier-lab tune --hosts 6 --rps 600 --target kuma --format json",
            "  outlier-lab tune --hosts 6 --rps 600 --explain one-host-partial",
            "  outlier-lab tune --from-log access.log --from cluster.yaml",
            "  outlier-lab tune --hosts 6 --rps 600 --engine flink --parallelism 2",
            "",
            "Exit status: 0 on success, 2 for bad input."})
public final class TuneCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    WorkOptions work;

    /** run's inputs: a scenario, --envoy, --istio, --set, and --hosts, --rps, --clients, --envoy-version. */
    @Mixin
    InputOptions input;

    @Option(names = "--from", paramLabel = "FILE",
            description = {"The current settings: anything check reads (Envoy cluster, Istio DestinationRule, Envoy",
                "Gateway BackendTrafficPolicy, Kuma MeshCircuitBreaker) or a scenario; gives the target and hosts."})
    Path from;

    @Option(names = "--from-log", paramLabel = "FILE",
            description = {"An access log (the formats replay reads): gives the rate (lines over their time span), the",
                "hosts (upstream hosts seen) and the callers (proxy instances) where flags do not."})
    Path fromLog;

    @Mixin
    LogFormatOptions logFormat;

    @Option(names = "--target", paramLabel = "T",
            description = "Where the recommendation goes: envoy, istio, envoy-gateway or kuma (default: --from's, else envoy).")
    String target;

    @Option(names = "--suite", paramLabel = "default|FILE", defaultValue = "default",
            description = "The failure scenarios: default, or a suite file that extends or replaces them.")
    String suite;

    @Option(names = "--seeds", paramLabel = "K", defaultValue = "8",
            description = "Seeds for the finalists (candidates are screened on 2); default ${DEFAULT-VALUE}.")
    int seeds;

    @Option(names = "--max-ejected", paramLabel = "N",
            description = "Most hosts out at once that a setting may cause (default: a third of the hosts, at least 1).")
    Integer maxEjected;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default) or json (every scenario's figures, seed by seed).")
    Format format;

    @Option(names = "--explain", paramLabel = "SCENARIO",
            description = "Also print the recommended setting's decision trace on this suite scenario (seed 1), as run does.")
    String explain;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "local",
            description = {"local (default): run here; flink: run the search's runs as Flink jobs on Flink's local",
                "MiniCluster (the same result; see docs/flink.md)."})
    ReplayCommand.Engine engine;

    @Option(names = "--parallelism", paramLabel = "N",
            description = "--engine flink: the jobs' parallelism (default: the machine's cores).")
    Integer parallelism;

    /** The runs made elsewhere (a Flink job), or null. */
    private TuneEngine fleet;

    /** Makes a tune's runs elsewhere: the executor for the given {@code --parallelism} (null: the default). */
    public interface TuneEngine {
        RunExecutor executor(Integer parallelism);
    }

    /** This command with its runs made by {@code fleet} (the flink module's job). */
    public TuneCommand runningOn(TuneEngine fleet) {
        this.fleet = fleet;
        return this;
    }

    /** What an access log says of the traffic: requests per second over its span, hosts seen, proxy instances. */
    record LogTraffic(long rps, int hosts, int clients) {
    }

    private LogTraffic logTraffic() {
        List<LogInput> inputs = List.of(LogInput.of(fromLog.toString(), System.in));
        LogFormat fmt = logFormat.resolve(inputs);
        ReadSettings settings = new ReadSettings(fmt, ReadSettings.DEFAULT_REORDER_WINDOW_NANOS, null, false, null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES, ReadSettings.DEFAULT_MAX_NAMES);
        try (LogScan.Result scan = LogScan.scan(inputs, settings, null)) {
            List<ReplayGroup> groups = scan.groups();
            if (groups.isEmpty()) {
                throw new InputException("--from-log " + fromLog + ": no request lines to take the traffic from");
            }
            java.util.Set<String> clusters = new java.util.TreeSet<>();
            java.util.Set<String> seen = new java.util.HashSet<>();
            long entries = 0;
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (ReplayGroup g : groups) {
                clusters.add(g.cluster());
                seen.addAll(g.hosts());
                entries += g.entries();
                first = Math.min(first, g.firstEpochNanos());
                last = Math.max(last, g.lastEpochNanos());
            }
            if (clusters.size() > 1) {
                throw new InputException("--from-log " + fromLog + ": the log has " + clusters.size() + " upstream clusters ("
                        + String.join(", ", clusters) + "); tune one at a time (filter the log to one cluster)");
            }
            double seconds = Math.max(1e-9, (last - first) / 1e9);
            long perSecond = Math.max(1, Math.round(entries / Math.max(1.0, seconds)));
            return new LogTraffic(perSecond, seen.size(), groups.size());
        }
    }

    /** Output formats of {@code tune}. */
    enum Format { text, json }

    @Override
    public Integer call() {
        if (engine == ReplayCommand.Engine.flink && fleet == null) {
            return FlinkLauncher.run(spec);
        }
        if (engine == ReplayCommand.Engine.local && parallelism != null) {
            throw new InputException("--parallelism " + parallelism + ": only with --engine flink");
        }
        RunExecutor elsewhere = fleet == null ? null : fleet.executor(parallelism);
        if (explain != null && format == Format.json) {
            throw new InputException("--explain: the decision trace is text; use it without --format json");
        }
        Integer hosts = input.hosts();
        Long rps = input.rps();
        Integer clients = input.clients();
        String envoyVersion = input.envoyVersion();
        if (from != null && input.describesCluster()) {
            throw new InputException("--from " + from + " and run's inputs (a scenario, --example, --set, --envoy, "
                    + "--istio) both give the current settings; give one");
        }
        TuneInputs given = from == null && input.describesCluster() ? TuneInputs.of(input) : null;
        CurrentSettings current = given != null ? given.current() : from == null
                ? CurrentSettings.defaults("search", target == null ? Target.ENVOY : Target.byFlag(target),
                        hosts == null ? 1 : hosts)
                : CurrentSettings.read(InputFiles.readText(from), from.toString());
        LogTraffic log = fromLog == null ? null : logTraffic();
        int n = hosts != null ? hosts : current.hosts() != null ? current.hosts() : log != null ? log.hosts() : -1;
        if (n < 0) {
            throw new InputException("--hosts: missing; say how many hosts the cluster has, e.g. --hosts 6"
                    + (from == null ? "" : " (" + from + " does not list them)"));
        }
        long rate = rps != null ? rps : current.rps() != null ? current.rps() : log != null ? log.rps() : -1;
        if (clients == null) {
            clients = given != null ? given.clients() : log != null ? log.clients() : 1;
        }
        if (rate < 0) {
            throw new InputException("--rps: missing; say how many requests per second the cluster gets, e.g. --rps 600");
        }
        Target t = target == null ? current.target() : Target.byFlag(target);
        EnvoyVersion version = envoyVersion != null
                ? ScenarioReader.envoyVersion(new Located(envoyVersion, "--envoy-version"))
                : current.version() != null ? current.version() : EnvoyVersion.DEFAULT;
        int most = maxEjected != null ? maxEjected : TuneRequest.defaultMaxEjected(Math.max(1, n));
        List<SuiteScenario> scenarios = new ArrayList<>();
        if (n >= 2 && n <= 10_000 && clients >= 1 && clients <= Math.min(10_000, Math.max(1, rate))) {
            scenarios.addAll(new DefaultSuite(n, rate, clients, 0).scenarios());
        }
        if (!suite.equals("default")) {
            SuiteFile.Read read = SuiteFile.read(Path.of(suite));
            if (read.replace()) {
                scenarios.clear();
            }
            scenarios.addAll(read.scenarios());
        }
        TuneRequest req = new TuneRequest(current.name(), current.source(), n, rate, clients, t, version,
                current.config(), current.panicThresholdPercent(), scenarios, 2, seeds, most, 0,
                Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())));
        SuiteScenario explained = explain == null ? null : scenarios.stream().filter(s -> s.name().equals(explain))
                .findFirst().orElseThrow(() -> new InputException("--explain: '" + explain + "' is not a scenario of the "
                        + "suite; expected one of " + String.join(", ", scenarios.stream().map(SuiteScenario::name)
                        .toList())));
        long units = Tuner.plannedUnits(req);
        // the runs are independent and go to req.threads() threads at once
        work.check(new WorkEstimate(units / req.threads(), 0, 0), "this tune (" + scenarios.size() + " scenarios, every "
                + "candidate on 2 seeds, the finalists on " + seeds + ", on " + req.threads()
                + (req.threads() == 1 ? " thread" : " threads") + ")");
        WorkOptions.Progress progress = WorkOptions.progress("tune", units);
        TuneResult result = elsewhere == null ? Tuner.tune(req, u -> progress.next(u).progress(1, 1))
                : Tuner.tune(req, u -> progress.next(u).progress(1, 1), elsewhere);
        progress.finish();
        String out = format == Format.json ? TuneJson.write(result) : TuneText.render(result);
        if (explained != null) {
            var w = result.recommended().written();
            RunResult run = Simulation.run(explained.with(1, w.config(), w.panicThresholdPercent(), version),
                    RunOptions.DEFAULT.keepingEvents(200));
            String trace = TextReport.render(run, 200, null);
            out = out + "\nDecision trace of the recommendation on " + explained.name()
                    + " (seed 1):\n" + trace;
        }
        spec.commandLine().getOut().print(out);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
