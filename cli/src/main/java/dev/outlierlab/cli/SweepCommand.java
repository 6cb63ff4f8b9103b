package dev.outlierlab.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.report.SweepTable;
import dev.outlierlab.report.SweepTable.Row;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.report.format.SweepFormats;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import java.io.Serializable;
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
            "",
            "Use it to choose a setting: which max_ejection_percent ejects the bad host, which error"
                    + " rates consecutive_5xx catches, how many hosts success rate needs.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab sweep --vary outlier_detection.max_ejection_percent=10,17,34,100",
            "  outlier-lab sweep --vary faults[0].error_rate=10,33,60,80,100 \\",
            "    --vary outlier_detection.enforcing_success_rate=0,100",
            "  outlier-lab sweep scenario.yaml --vary cluster.hosts=3,5,6,10,20 --format csv",
            "  outlier-lab sweep --envoy cluster.yaml \\",
            "    --vary outlier_detection.max_ejection_percent=10,17,34",
            "  outlier-lab sweep --istio dr.yaml --hosts 6 \\",
            "    --vary outlier_detection.interval=5s,10s,30s",
            "  outlier-lab sweep gateway.yaml --vary cluster.hosts=2,3,4,5,6,8 \\",
            "    --vary gateway.mode=shadow,prod",
            "      a gateway scenario: ejections, kept_all and would_eject stages, failures",
            "  outlier-lab sweep --nginx nginx.conf --vary max_fails=1,3,5",
            "      nginx's (HAProxy's, Caddy's) own settings from its file, by their names",
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
            description = "A scenario key and the values to try, comma-separated (repeatable: every combination is"
                    + " run). Keys as for --set, e.g. outlier_detection.max_ejection_percent=10,34,100")
    List<String> vary = new ArrayList<>();

    @Mixin
    FormatOption format;

    @Mixin
    EngineOption engine;

    /** The runs run elsewhere (a Flink job), or null. */
    private SweepEngine fleet;

    /** One run of a sweep as plain values: a job runs it on a worker ({@link #run}). */
    public record Run(int index, ScenarioOptions.Source source, List<String> sets) implements Serializable {
        /** The run's figures, as this command runs it. */
        public RunRow run() {
            Row row = runOne(source.loadProfiled(sets), List.of(), RunWatcher.NONE);
            return new RunRow(row.figures(), ResultJson.write(row.summary()));
        }
    }

    /** One run's result as plain values: its figures in column order, its summary as JSON. */
    public record RunRow(List<String> figures, String summaryJson) implements Serializable {}

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
        List<SweepPlan.Axis> axes = SweepPlan.axes(vary, input.serviceConfig, MAX_RUNS);
        List<SweepPlan.Planned> planned = SweepPlan.plan(
                axes, input.allSets(), sets -> servers.isUsed() ? servers.resolve(input, sets) : input.resolve(sets));
        SweepRows rows = planned.get(0).rows();
        SweepRows.Work total = new SweepRows.Work(new WorkEstimate(0, 0, 0), GatewayWorkEstimate.NONE);
        List<SweepRows.Work> each = new ArrayList<>();
        for (SweepPlan.Planned p : planned) {
            each.add(rows.work(p.scenario()));
            total = total.plus(each.get(each.size() - 1));
        }
        work.check(
                total.lab(),
                total.gateway(),
                "this sweep of " + planned.size() + (planned.size() == 1 ? " run" : " runs"));
        WorkOptions.Progress progress = WorkOptions.progress(
                "sweep", Durations.saturatingAdd(total.lab().units(), WorkOptions.progressUnits(total.gateway())));
        List<Row> table = fleet != null ? onFleet(planned) : locally(planned, rows, each, progress);
        progress.finish();
        List<String> keys = axes.stream().map(SweepPlan.Axis::key).toList();
        format.emit(output, spec, SweepFormats.SWEEP, new SweepTable(keys, rows.columns(), table));
        return 0;
    }

    /** The runs as a Flink job: each run's figures and summary, in the runs' order. */
    private List<Row> onFleet(List<SweepPlan.Planned> planned) {
        ScenarioOptions.Source source = input.scenario.source();
        List<Run> runs = new ArrayList<>();
        for (SweepPlan.Planned p : planned) {
            runs.add(new Run(runs.size(), source, p.sets()));
        }
        List<RunRow> done = fleet.run(runs, engine.parallelism());
        List<Row> table = new ArrayList<>();
        for (int i = 0; i < planned.size(); i++) {
            try {
                table.add(new Row(planned.get(i).values(), done.get(i).figures(), (ObjectNode)
                        ResultJson.mapper().readTree(done.get(i).summaryJson())));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        return table;
    }

    /** The runs here, one after the other, each advancing the progress bar by its work. */
    private static List<Row> locally(
            List<SweepPlan.Planned> planned, SweepRows rows, List<SweepRows.Work> each, WorkOptions.Progress progress) {
        List<Row> table = new ArrayList<>();
        for (int i = 0; i < planned.size(); i++) {
            SweepPlan.Planned p = planned.get(i);
            SweepRows.Work w = each.get(i);
            RunWatcher watcher =
                    progress.next(Durations.saturatingAdd(w.lab().units(), WorkOptions.progressUnits(w.gateway())));
            SweepRows.Row row = rows.run(p.scenario(), watcher);
            table.add(new Row(p.values(), row.figures(), row.summary()));
        }
        return table;
    }

    /** One run: its figures and summary, as a job's worker computes them. */
    private static Row runOne(ScenarioReader.Profiled loaded, List<String> values, RunWatcher watcher) {
        SweepRows.Row row = SweepPlan.rowsOf(loaded).run(loaded, watcher);
        return new Row(values, row.figures(), row.summary());
    }
}
