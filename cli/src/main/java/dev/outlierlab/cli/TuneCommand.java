package dev.outlierlab.cli;

import dev.outlierlab.accesslog.TrafficFacts;
import dev.outlierlab.config.InputException;
import dev.outlierlab.report.RecommendationTrace;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.TuneFormats;
import dev.outlierlab.tune.RunExecutor;
import dev.outlierlab.tune.SearchBudget;
import dev.outlierlab.tune.SearchPilot;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.Target;
import dev.outlierlab.tune.TuneRequest;
import dev.outlierlab.tune.TuneResult;
import dev.outlierlab.tune.TuneService;
import dev.outlierlab.tune.Tuner;
import java.nio.file.Path;
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
@Command(
        name = "tune",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Find outlier-detection settings that catch a bad host without ejecting too many, for this cluster.",
            "",
            "Searches what the target can express, scored on a suite of failure scenarios sized"
                    + " to the cluster (one host partly failing or dead, several hosts, a shared outage,"
                    + " an overload, a noisy pool, a slow host, flapping, a rolling restart, bad"
                    + " requests, clusters of two and three), each against its correct action. Prints the"
                    + " current settings' scorecard, the front of benefit against harm, one"
                    + " recommendation in the target's format with a diff, why, and what no setting can"
                    + " catch here.",
            ""
        },
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
            "Exit status: 0 on success, 2 for bad input."
        })
public final class TuneCommand implements Callable<Integer>, FormatOption.Formatted {
    @Spec
    CommandSpec spec;

    @Mixin
    WorkOptions work;

    /** run's inputs: a scenario, --envoy, --istio, --set, and --hosts, --rps, --clients, --envoy-version. */
    @Mixin
    InputOptions input;

    @Option(
            names = "--from",
            paramLabel = "FILE",
            description = "The current settings: anything check reads (Envoy cluster, Istio"
                    + " DestinationRule, Envoy Gateway BackendTrafficPolicy, Kuma"
                    + " MeshCircuitBreaker), an nginx.conf, a haproxy.cfg, a Caddyfile or a"
                    + " scenario; gives the target and hosts.")
    Path from;

    @Option(
            names = {"--upstream", "--backend"},
            paramLabel = "NAME",
            description =
                    "With --from nginx.conf or haproxy.cfg: the upstream or backend to tune (default: the only one).")
    String upstream;

    @Mixin
    TuneLogOptions logs;

    @Option(
            names = "--target",
            paramLabel = "T",
            description = "Where the recommendation goes: envoy, istio, envoy-gateway, kuma,"
                    + " grpc (a gRPC service config), gateway (a gateway configuration),"
                    + " nginx (an nginx upstream), haproxy (a HAProxy backend) or caddy (a"
                    + " Caddy reverse_proxy); default: --from's, else envoy.")
    String target;

    @Option(
            names = "--suite",
            paramLabel = "default|FILE",
            defaultValue = "default",
            description = "The failure scenarios: default, or a suite file that extends or replaces them.")
    String suite;

    @Option(
            names = "--seeds",
            paramLabel = "K",
            defaultValue = "8",
            description = "Seeds for the finalists (candidates are screened on 2); default ${DEFAULT-VALUE}.")
    int seeds;

    @Option(
            names = "--max-ejected",
            paramLabel = "N",
            description =
                    "Most hosts out at once that a setting may cause (default: a third of the hosts, at least 1).")
    Integer maxEjected;

    @Option(
            names = "--max-false-per-day",
            paramLabel = "N",
            defaultValue = "0",
            description = "Most false ejections a day a setting may cause in a scenario where nothing should go, at"
                    + " that scenario's conditions held all day (default 0: none on any seed); loosen it to accept a"
                    + " trade-off.")
    double maxFalsePerDay;

    @Option(
            names = "--max-added-failures",
            paramLabel = "N",
            defaultValue = "1",
            description = "Most failed requests per 1,000 a setting may add over detection off in a scenario where"
                    + " nothing should be ejected (default 1); loosen it to accept a setting that costs callers there.")
    double maxAddedPerThousand;

    @Mixin
    FormatOption format;

    @Option(
            names = "--explain",
            paramLabel = "SCENARIO",
            description =
                    "Also print the recommended setting's decision trace on this suite scenario (seed 1), as run does.")
    String explain;

    @Mixin
    EngineOption engine;

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

    private TuneRequest request(TuneInputs.Start start, TrafficFacts log) {
        return TuneService.request(new TuneService.Given(
                start.current(),
                input.hosts(),
                input.rps(),
                input.clients(),
                start.clients(),
                input.envoyVersion(),
                log == null
                        ? null
                        : new TuneService.LogFacts(
                                log.rps(), log.hosts(), log.clients(), log.baseErrorPpm(), log.said()),
                suite,
                seeds,
                maxEjected,
                maxFalsePerDay,
                maxAddedPerThousand,
                Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())),
                start.notes()));
    }

    /**
     * What refuses a search whose estimated work needs {@code --yes} ({@link SearchBudget} decides): nothing with
     * {@code --yes} or where the bound before running allows it; a refusal now where even the pilot would be over half
     * of the allowance; else the pilot's check: on a terminal a line says that the pilot runs, and one that the search goes on (or the
     * refusal says it stops).
     */
    private SearchPilot.Check workCheck(TuneRequest req) {
        if (work.yes) {
            return null;
        }
        SearchBudget budget = new SearchBudget(req);
        SearchBudget.Decision before = budget.beforeRunning();
        if (before.verdict() == SearchBudget.Verdict.RUN) {
            return null;
        }
        if (before.verdict() == SearchBudget.Verdict.REFUSED) {
            throw work.searchRefusal(before, searchWords(req), smaller(req));
        }
        WorkOptions.note("tune: estimating the search's work from its first runs (the bound before running says "
                + WorkOptions.duration(before.secondsAThread()) + " of CPU a thread, over the "
                + WorkOptions.duration(SearchBudget.MAX_SECONDS_A_THREAD) + " allowed without --yes)...");
        return e -> {
            SearchBudget.Decision after = budget.afterPilot(e);
            if (after.verdict() == SearchBudget.Verdict.REFUSED) {
                throw work.searchRefusal(after, searchWords(req), smaller(req));
            }
            WorkOptions.note("tune: estimated at " + WorkOptions.duration(after.secondsAThread())
                    + " of CPU a thread; going on");
        };
    }

    private static String searchWords(TuneRequest req) {
        return "this tune (" + req.suite().size() + " scenarios; " + Tuner.plannedSearch(req) + "; on " + req.threads()
                + (req.threads() == 1 ? " thread" : " threads") + ")";
    }

    /** What the user can change to make the search smaller, in the flags of tune. */
    private static String smaller(TuneRequest req) {
        return "lower --seeds, a lower --max-ejected (fewer caps to try)"
                + (req.clients() > 1
                        ? ", fewer --clients (each caller's detectors are simulated apart; the advice is then for that many callers)"
                        : "")
                + ", score a smaller --suite FILE of your own, or run the search elsewhere with --engine flink";
    }

    /** The Flink job ships Envoy scenarios: gRPC's and the gateway's runs are made here. */
    private void refuseFlinkFor(Target t) {
        if (engine.isFlink() && !t.can(Target.Can.ENVOY_FIELDS)) {
            throw new InputException("--engine flink: not with --target " + t.flag() + "; the Flink job runs Envoy's "
                    + "simulation only (tune " + t.flag() + " with --engine local)");
        }
    }

    @Override
    public Formats<TuneResult> formats() {
        return TuneFormats.TUNE;
    }

    @Override
    public Integer call() {
        if (target != null) {
            refuseFlinkFor(Target.byFlag(target));
        }
        Integer launched = engine.launch(spec, fleet != null);
        if (launched != null) {
            return launched;
        }
        RunExecutor elsewhere = fleet == null ? null : fleet.executor(engine.parallelism());
        if (explain != null) {
            format.require(TuneFormats.TUNE.only("tune --explain (the decision trace is text)", List.of("text")));
        }
        TuneInputs.Start start = TuneInputs.start(input, from, upstream, target, logs.isUsed());
        refuseFlinkFor(start.current().target());
        TrafficFacts log = logs.isUsed() ? logs.facts(from) : null;
        if (log != null && input.rps() == null && start.current().rps() == null) {
            log.requireRate(logs.names());
        }
        TuneRequest req = request(start, log);
        SuiteScenario explained = explain == null ? null : SuiteScenario.named(req.suite(), explain, "--explain");
        long units = Tuner.plannedUnits(req);
        SearchPilot.Check check = workCheck(req);
        WorkOptions.Progress progress = WorkOptions.progress("tune", units);
        TuneResult result;
        try {
            result = TuneService.run(
                    req,
                    u -> progress.next(u).progress(1, 1),
                    elsewhere,
                    check,
                    start.fromText(),
                    start.read().target());
        } finally {
            progress.finish();
        }
        String out = format.render(TuneFormats.TUNE, result);
        if (explained != null) {
            out += RecommendationTrace.render(result, explained, req.envoyVersion());
        }
        spec.commandLine().getOut().print(out);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
