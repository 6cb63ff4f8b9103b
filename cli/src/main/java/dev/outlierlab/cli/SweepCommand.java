package dev.outlierlab.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.SweepTable;
import dev.outlierlab.report.SweepTable.Row;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.SweepFormats;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code outlier-lab sweep}: runs a scenario for every combination of values and compares the headline figures. */
@Command(
        name = "sweep",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Run a scenario once for every combination of the given values and compare the results in one table.",
            "Use it to choose a setting: which max_ejection_percent ejects the bad host, which error rates",
            "consecutive_5xx catches, how many hosts success rate needs.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab sweep --vary outlier_detection.max_ejection_percent=10,17,20,34,50,100",
            "  outlier-lab sweep --vary faults[0].error_rate=10,33,60,80,100 --vary outlier_detection.enforcing_success_rate=0,100",
            "  outlier-lab sweep scenario.yaml --vary cluster.hosts=3,5,6,10,20 --format csv",
            "  outlier-lab sweep --envoy cluster.yaml --vary outlier_detection.max_ejection_percent=10,17,34",
            "  outlier-lab sweep --istio dr.yaml --hosts 6 --vary outlier_detection.interval=5s,10s,30s",
            "  outlier-lab sweep gateway.yaml --vary cluster.hosts=2,3,4,5,6,8 --vary gateway.mode=shadow,prod",
            "  outlier-lab sweep --nginx nginx.conf --vary max_fails=1,3,5",
            "      nginx's (HAProxy's, Caddy's) own settings from its file, varied by their names",
            "      a profile: gateway scenario: ejections, kept_all and would_eject stages, failures per run",
            "",
            "At most " + SweepCommand.MAX_RUNS + " runs. Exit status: 0 on success, 2 for bad input."
        })
public final class SweepCommand implements Callable<Integer>, FormatOption.Formatted {
    static final int MAX_RUNS = 500;

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
            names = "--vary",
            paramLabel = "KEY=V1,V2,...",
            required = true,
            description = {
                "A scenario key and the values to try, comma-separated (repeatable: every",
                "combination is run). Keys as for --set, e.g. outlier_detection.max_ejection_percent=10,34,100"
            })
    List<String> vary = new ArrayList<>();

    @Mixin
    FormatOption format;

    private record Axis(String key, List<String> values) {}

    private String profile;

    @Mixin
    EngineOption engine;

    /** The runs run elsewhere (a Flink job), or null. */
    private SweepEngine fleet;

    /** One run of a sweep as plain values: a job runs it on a worker ({@link #run}). */
    public record Run(int index, ScenarioOptions.Source source, List<String> sets) implements java.io.Serializable {
        /** The run's figures, as this command runs it. */
        public RunRow run() {
            Row row = runOne(source.loadProfiled(sets), List.of(), RunWatcher.NONE);
            return new RunRow(row.figures(), ResultJson.write(row.summary()));
        }
    }

    /** One run's result as plain values: its figures in column order, its summary as JSON. */
    public record RunRow(List<String> figures, String summaryJson) implements java.io.Serializable {}

    /** Runs a sweep's runs elsewhere and returns their rows in the runs' order. */
    public interface SweepEngine {
        List<RunRow> run(List<Run> runs, Integer parallelism);
    }

    /** This command with its runs run by {@code fleet} (the flink module's job). */
    public SweepCommand runningOn(SweepEngine fleet) {
        this.fleet = fleet;
        return this;
    }

    @Override
    public Formats<SweepTable> formats() {
        return SweepFormats.SWEEP;
    }

    @Override
    public Integer call() {
        if (engine.isFlink() && (input.clusterSource.isUsed() || input.givesGrpcSettings() || servers.isUsed())) {
            throw new InputException("--engine flink sweeps scenario files and --set only; run a sweep of --envoy,"
                    + " --istio, --service-config, --nginx, --haproxy or --caddy configuration locally (without"
                    + " --engine)");
        }
        Integer launched = engine.launch(spec, fleet != null);
        if (launched != null) {
            return launched;
        }
        List<Axis> axes = new ArrayList<>();
        long combinations = 1;
        for (String v : vary) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new InputException("--vary " + v
                        + ": expected KEY=V1,V2,..., e.g. --vary outlier_detection.max_ejection_percent=10,34,100");
            }
            List<String> values = List.of(v.substring(eq + 1).split(",", -1));
            if (values.stream().anyMatch(String::isBlank)) {
                throw new InputException("--vary " + v + ": a value is empty; separate values with single commas");
            }
            String key = v.substring(0, eq).trim();
            if (input.serviceConfig != null && (key.startsWith("grpc.") || key.startsWith("outlier_detection."))) {
                throw new InputException(
                        "--vary " + key + ": --service-config " + input.serviceConfig + " fixes gRPC's "
                                + "settings for every run; vary them in a profile: grpc scenario's grpc block instead");
            }
            axes.add(new Axis(key, values));
            combinations *= values.size();
            if (combinations > MAX_RUNS) {
                throw new InputException("--vary: " + combinations + "+ combinations; at most " + MAX_RUNS + " runs");
            }
        }
        List<Planned> planned = new ArrayList<>();
        plan(axes, 0, new ArrayList<>(), planned);
        SweepRows rows = planned.get(0).rows();
        SweepRows.Work total = new SweepRows.Work(new WorkEstimate(0, 0, 0), GatewayWorkEstimate.NONE);
        List<SweepRows.Work> each = new ArrayList<>();
        for (Planned p : planned) {
            each.add(rows.work(p.scenario()));
            total = total.plus(each.get(each.size() - 1));
        }
        work.check(
                total.lab(),
                total.gateway(),
                "this sweep of " + planned.size() + (planned.size() == 1 ? " run" : " runs"));
        WorkOptions.Progress progress = WorkOptions.progress(
                "sweep", Durations.saturatingAdd(total.lab().units(), WorkOptions.progressUnits(total.gateway())));
        List<Row> table = new ArrayList<>();
        if (fleet != null) {
            ScenarioOptions.Source source = input.scenario.source();
            List<Run> runs = new ArrayList<>();
            for (Planned p : planned) {
                runs.add(new Run(runs.size(), source, p.sets()));
            }
            List<RunRow> done = fleet.run(runs, engine.parallelism());
            for (int i = 0; i < planned.size(); i++) {
                try {
                    table.add(new Row(planned.get(i).values(), done.get(i).figures(), (ObjectNode)
                            ResultJson.mapper().readTree(done.get(i).summaryJson())));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new IllegalStateException(e);
                }
            }
        } else {
            for (int i = 0; i < planned.size(); i++) {
                Planned p = planned.get(i);
                SweepRows.Work w = each.get(i);
                RunWatcher watcher =
                        progress.next(Durations.saturatingAdd(w.lab().units(), WorkOptions.progressUnits(w.gateway())));
                SweepRows.Row row = rows.run(p.scenario(), watcher);
                table.add(new Row(p.values(), row.figures(), row.summary()));
            }
        }
        progress.finish();
        List<String> keys = axes.stream().map(Axis::key).toList();
        format.emit(output, spec, SweepFormats.SWEEP, new SweepTable(keys, rows.columns(), table));
        return 0;
    }

    /** One run: its figures and summary, as the local sweep and a job's worker compute them. */
    private static Row runOne(ScenarioReader.Profiled loaded, List<String> values, RunWatcher watcher) {
        SweepRows.Row row = rowsOf(loaded).run(loaded, watcher);
        return new Row(values, row.figures(), row.summary());
    }

    /** The profile's sweep facet; a profile without one is refused. */
    private static SweepRows rowsOf(ScenarioReader.Profiled loaded) {
        return loaded.profile()
                .facet(SweepRows.class)
                .orElseThrow(() -> new InputException("sweep: profile " + loaded.name() + " has no sweep; sweep takes "
                        + Profiles.namesWith(SweepRows.class)));
    }

    /** One combination of the varied values, the scenario it gives and the --set overrides that give it. */
    private record Planned(List<String> values, ScenarioReader.Profiled scenario, List<String> sets) {
        SweepRows rows() {
            return rowsOf(scenario);
        }
    }

    /** A bad value of a --vary axis is reported as the --vary the user wrote, not as the --set it became. */
    private static InputException asVary(InputException e, List<Axis> axes) {
        for (Axis axis : axes) {
            String prefix = "--set " + axis.key();
            if (e.headline().startsWith(prefix)) {
                return new InputException(
                        "--vary " + axis.key() + e.headline().substring(prefix.length()), e.details());
            }
        }
        return e;
    }

    /** Reads every combination's scenario first, so that bad input and the work are known before any run. */
    private void plan(List<Axis> axes, int depth, List<String> chosen, List<Planned> planned) {
        if (depth == axes.size()) {
            List<String> sets = new ArrayList<>(input.allSets());
            for (int i = 0; i < axes.size(); i++) {
                sets.add(axes.get(i).key() + "=" + chosen.get(i));
            }
            ScenarioReader.Profiled loaded;
            try {
                loaded = servers.isUsed() ? servers.resolve(input, sets) : input.resolve(sets);
            } catch (InputException e) {
                throw asVary(e, axes);
            }
            String runProfile = loaded.name();
            rowsOf(loaded);
            if (profile != null && !profile.equals(runProfile)) {
                throw new InputException("--vary: every run of a sweep must have the same profile; these runs have "
                        + profile + " and " + runProfile);
            }
            profile = runProfile;
            planned.add(new Planned(List.copyOf(chosen), loaded, List.copyOf(sets)));
            return;
        }
        for (String value : axes.get(depth).values()) {
            chosen.add(value);
            plan(axes, depth + 1, chosen, planned);
            chosen.remove(chosen.size() - 1);
        }
    }
}
