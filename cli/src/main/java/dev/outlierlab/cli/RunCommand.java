package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.Examples;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.HingesText;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.RunFormats;
import dev.outlierlab.report.format.RunFormats.RunView;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.hinges.PatternContrast;
import java.time.Instant;
import java.util.List;
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
            "",
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
            "      the scenario's traffic and faults on an Envoy cluster's settings and hosts",
            "  outlier-lab run --istio destination-rule.yaml --hosts 6",
            "  outlier-lab run --access-log access.log && outlier-lab replay access.log",
            "      the synthetic traffic as Envoy's access log, replayed: the same decisions",
            "  outlier-lab run --example overload-cap-100 --series signals.csv",
            "      a named story (see --list-examples), with the signals per second as CSV",
            "  outlier-lab run --trace-in outcomes.jsonl --set duration=60s",
            "      replay observed outcomes, one JSON object per line:",
            "      {\"time\": 12.5, \"host\": \"host-1\", \"code\": 503}",
            "      {\"time_ns\": 12500000001, \"host\": \"host-1\", \"result\": \"timeout\"}",
            "  outlier-lab run gateway.yaml --set gateway.mode=shadow --stages stages.jsonl",
            "      a gateway scenario (docs/gateway.md), its stages as JSON lines",
            "",
            "Exit status: 0 on success, 2 for bad input (the message names the key, value and line)."
        })
public final class RunCommand implements Callable<Integer>, FormatOption.Formatted {
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

    @Mixin
    RunFiles files;

    @Mixin
    StatsOption stats;

    @Mixin
    FormatOption format;

    @Option(
            names = "--signals",
            description = "JSON output: include the signals object (always there with the load keys or --example).")
    boolean signals;

    @Option(names = "--list-examples", description = "List the named example scenarios (for --example) and exit.")
    boolean listExamples;

    @Option(
            names = "--events",
            paramLabel = "N",
            defaultValue = "200",
            description = "Text output: show at most N decisions (default ${DEFAULT-VALUE}); JSON has them all.")
    int maxEvents;

    @Option(
            names = "--profile",
            paramLabel = "LIST",
            description = "Run under another profile: grpc (grpc-java's outlier detection, docs/grpc.md), or several"
                    + " side by side with one comparison table, e.g. --profile envoy,grpc or envoy,grpc,gateway.")
    String profile;

    /** The longest run (estimated) that the text report repeats with the other fault pattern. */
    static final double MAX_CONTRAST_SECONDS = 5;

    /** The decisions the text report keeps to collapse into its rows (the rest are counted). */
    static final int TEXT_KEPT_DECISIONS = 10_000;

    @Override
    public Formats<RunView> formats() {
        return RunFormats.RUN;
    }

    @Override
    public Integer call() {
        if (listExamples) {
            return listExamples();
        }
        OptionRanges.refuseNegativeEvents(maxEvents);
        Instant start = files.start();
        if (servers.isUsed()) {
            output.emit(spec, servers.run(input, request()));
            return 0;
        }
        ScenarioReader.Profiled profiled = input.loadProfiled();
        if (profile != null || input.givesGrpcSettings()) {
            return runProfiles(profiled);
        }
        Optional<ProfileRunner> runner = profiled.profile().facet(ProfileRunner.class);
        if (runner.isPresent() || !profiled.profile().capabilities().contains(Capability.ENVOY_REPORT)) {
            return runProfile(runner, profiled);
        }
        files.refuseStages(profiled.name());
        RunView view = runEnvoy(input.applyCluster(profiled), start);
        files.writeAfter(view.result(), start);
        if (stats.isUsed()) {
            output.emit(spec, stats.render(view.result()));
        } else {
            format.emit(output, spec, RunFormats.RUN, view);
        }
        return 0;
    }

    /** What this run asks of a profile's own runner: the format, the decisions to show and the files given. */
    private RunRequest request() {
        List<RunRequest.Used> used = files.used(input.clusterSource.isUsed(), stats.isUsed(), format.is("csv"));
        return new RunRequest(format.name(), maxEvents, files.stagesFile, used, work).withTrace(files.traceIn);
    }

    private int listExamples() {
        for (Examples.Example e : Examples.all()) {
            spec.commandLine().getOut().printf("%-28s %s%n", e.name(), e.summary());
        }
        spec.commandLine().getOut().flush();
        return 0;
    }

    /** A profile with a runner of its own, or one that runs on the Envoy report but has no runner (refused). */
    private int runProfile(Optional<ProfileRunner> runner, ScenarioReader.Profiled profiled) {
        RunRequest request = request();
        ProfileRunner r = runner.orElseThrow(() -> new InputException("run: profile " + profiled.name()
                + " has no runner; run takes " + Profiles.namesWith(ProfileRunner.class) + " or envoy"));
        format.require(r.formats(profiled.name()));
        r.refuse(request, profiled);
        output.emit(spec, r.run(input.resolve(), request));
        return 0;
    }

    /**
     * Runs an Envoy scenario, or replays the trace over it. The text report says whether the other fault pattern
     * changes the decisions: a second run, when the first is short.
     */
    private RunView runEnvoy(ScenarioReader.Loaded loaded, Instant start) {
        // text shows the first --events decisions and counts the rest, collapsing identical decisions into rows, so
        // it keeps more decisions than it shows rows; JSON has them all
        RunOptions options = !format.is("text")
                ? RunOptions.DEFAULT
                : RunOptions.DEFAULT.keepingEvents(Math.max(maxEvents, TEXT_KEPT_DECISIONS));
        if (files.traceIn != null) {
            RunResult result = files.replay(loaded, options, work);
            return view(
                    result,
                    "replayed from " + files.traceIn + " (" + result.summary().requests() + " records)",
                    null);
        }
        WorkEstimate one = WorkEstimate.of(loaded.scenario());
        boolean text = format.is("text") && !stats.isUsed();
        boolean contrast = text
                && PatternContrast.swapped(loaded.scenario()) != null
                && WorkOptions.seconds(one) <= MAX_CONTRAST_SECONDS;
        work.check(WorkEstimate.ofRun(loaded.scenario(), options, files.accessLog != null), "this run");
        WorkOptions.Progress progress =
                WorkOptions.progress("run", contrast ? one.plus(one).units() : one.units());
        RunResult result = files.simulate(loaded.scenario(), options.watchedBy(progress.next(one.units())), start);
        String hinges = null;
        if (text) {
            PatternContrast other = contrast
                    ? PatternContrast.of(result, progress.next(one.units()))
                    : PatternContrast.planned(result.scenario());
            hinges = HingesText.render(result, other, CommandText.of(spec, "run"));
        }
        progress.finish();
        return view(result, null, hinges);
    }

    private RunView view(RunResult result, String source, String hinges) {
        boolean withSignals = signals
                || input.scenario.example != null
                || result.scenario().load().isShaped();
        return new RunView(result, maxEvents, source, hinges, input.clusterSource.advice, withSignals);
    }

    /** Several profiles side by side ({@link ProfileRun}), or one chosen by --profile or gRPC's settings. */
    private Integer runProfiles(ScenarioReader.Profiled profiled) {
        List<String> profiles = profile != null
                ? ProfileRun.profiles(profile)
                : List.of(ProfileRun.serviceConfigProfile().name());
        ProfileRun.refuse(profiled, profiles, input.givesGrpcSettings(), files.isUsed() || stats.isUsed());
        ScenarioReader.Loaded loaded = input.applyCluster(profiled);
        ScenarioReader.Profiled given = new ScenarioReader.Profiled(
                ProfileRun.serviceConfigProfile(), loaded, input.grpcSettings(profiled, loaded));
        if (profiles.size() == 1) {
            format.require(RunFormats.RUN.only("run --profile " + profiles.get(0), List.of("text", "json")));
            RunRequest request = new RunRequest(format.name(), maxEvents, null, List.of(), work);
            ProfileRunner runner = Profiles.facet(
                    profiles.get(0),
                    ProfileRunner.class,
                    names -> new InputException("--profile " + profiles.get(0) + ": runs alone only with " + names));
            output.emit(spec, runner.run(given, request));
            return 0;
        }
        format.require(
                RunFormats.RUN.only("a comparison of profiles (run each profile alone for JSON)", List.of("text")));
        output.emit(spec, ProfileRun.compare(profiles, given, work));
        return 0;
    }
}
