package dev.outlierlab.flink;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.cli.ReplayCommand;
import dev.outlierlab.config.InputException;
import dev.outlierlab.report.LogClock;
import dev.outlierlab.report.ReplayOutput;
import dev.outlierlab.report.ReplayTotalText;
import dev.outlierlab.report.ResultJson;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapPartitionFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * {@code replay} as a Flink batch job: the logs through Flink's FileSource ({@link AccessLogFormat}: the
 * project's readers), bad and skipped lines to a side output that is counted and never stops the job, a plan of
 * every detector ({@link FleetPlan}) broadcast to the replay, each detector keyed by cluster and proxy instance
 * and replayed for one or two settings in one pass ({@link ReplayGroups}), and the report put together on the
 * client from {@code replay}'s own head and the detectors' sections in order: byte for byte what {@code replay}
 * prints. The checks {@code replay} makes (bad lines, no detector, hosts) run on the job's counts before the
 * report is printed or written; with {@code --output-dir DIR} the report is {@code DIR/report.txt} (or
 * {@code .json}), written last, and each detector's decisions are in {@code DIR/detectors/}.
 */
public final class FleetReplayJob implements ReplayCommand.FleetEngine {
    static final OutputTag<Piece> TALLIES = new OutputTag<>("bad-lines", TypeInformation.of(Piece.class));
    private final String outputDirectory;
    private final boolean eventLogs;
    private final Parallelism bound;
    private final Integer parallelism;
    private List<FleetInputs.Input> inputs;

    /**
     * @param outputDirectory where the report and each detector's decisions go, or null (the report is printed)
     * @param eventLogs       also write each detector's decisions as Envoy's outlier event log
     * @param bound           the bound of {@code --parallelism}
     * @param parallelism     {@code --parallelism} as given (null: none), checked before anything is read
     */
    FleetReplayJob(String outputDirectory, boolean eventLogs, Parallelism bound, Integer parallelism) {
        this.outputDirectory = outputDirectory;
        this.eventLogs = eventLogs;
        this.bound = bound;
        this.parallelism = parallelism;
    }

    @Override
    public List<LogInput> inputs(List<String> logs, boolean hostCountGiven) {
        // the job's own options, refused before the logs are touched
        bound.check(parallelism);
        if (eventLogs && outputDirectory == null) {
            throw new InputException("--detector-event-logs: only with --output-dir DIR");
        }
        OutputDirectory.of(outputDirectory);
        inputs = FleetInputs.expand(logs);
        List<LogInput> out = new ArrayList<>();
        for (FleetInputs.Input i : inputs) {
            if (out.isEmpty()) {
                try {
                    // the first file's first lines, for format detection; the job reads the files itself
                    out.add(new LogInput(
                            i.name(),
                            null,
                            new BufferedInputStream(i.path().getFileSystem().open(i.path()), 1 << 20)));
                } catch (IOException e) {
                    throw new InputException(i.name() + ": cannot be read (" + e.getMessage() + ")");
                }
            } else {
                out.add(new LogInput(i.name(), null, null));
            }
        }
        return out;
    }

    @Override
    public String replay(ReplayCommand.FleetRequest request, ReplayCommand.FleetChecks checks) {
        FleetSettings settings = FleetSettings.of(request, outputDirectory, eventLogs);
        StreamExecutionEnvironment env = JobEnvironment.batch(bound.check(request.parallelism()));
        Path[] paths = inputs.stream().map(FleetInputs.Input::path).toArray(Path[]::new);
        ReadRecipe recipe = ReadRecipe.of(request);
        FileSource<OutcomeChunk> source = FileSource.forBulkFileFormat(new AccessLogFormat(recipe, inputs), paths)
                .build();
        SingleOutputStreamOperator<OutcomeChunk> entries = env.fromSource(
                        source,
                        WatermarkStrategy.<OutcomeChunk>noWatermarks()
                                .withTimestampAssigner((r, t) -> r.firstEpochNanos),
                        "access logs")
                .process(new SplitTallies())
                .name("bad and skipped lines to a side output");
        // each file's tally and its part of the plan (made by its reader) go to one task, which makes the plan, or
        // marks it refused (too many bad lines, beyond a bound) so that nothing is replayed for logs that are refused
        DataStream<byte[]> plan = entries.getSideOutput(TALLIES)
                .fullWindowPartition()
                .mapPartition(new MergedPlan(recipe))
                .returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                .setParallelism(1)
                .name("the plan");
        BroadcastStream<byte[]> broadcast = plan.broadcast(ReplayGroups.PLAN);
        DataStream<Piece> sections = entries.keyBy(r -> r.key, Types.LONG)
                .connect(broadcast)
                .process(new ReplayGroups(settings))
                .returns(Piece.class)
                .name("replay per detector");
        DataStream<Piece> plans = plan.map(b -> Piece.of(Piece.PLAN, 0, b, null))
                .returns(Piece.class)
                .setParallelism(1)
                .name("plan to the client");
        FleetPlan fleet = null;
        // by input and detector: a result received twice (after a restart of the job) counts once
        Map<Integer, Tally> tallies = new TreeMap<>();
        Map<Integer, String> parts = new TreeMap<>();
        Map<Integer, ReplayTotalText.Tally> totals = new TreeMap<>();
        try (CloseableIterator<Piece> it = sections.union(
                        entries.getSideOutput(TALLIES)
                                .filter(p -> p.kind == Piece.TALLY)
                                .name("tallies to the client"),
                        plans)
                .executeAndCollect(
                        "outlier-lab replay of " + inputs.size() + (inputs.size() == 1 ? " log" : " logs"))) {
            while (it.hasNext()) {
                Piece p = it.next();
                switch (p.kind) {
                    case Piece.PLAN -> fleet = Serial.read(p.bytes);
                    case Piece.TALLY -> tallies.put(p.index, Serial.read(p.bytes));
                    case Piece.TOTAL -> totals.put(p.index, Serial.read(p.bytes));
                    default -> parts.put(p.index, p.text);
                }
            }
        } catch (Exception e) {
            throw JobFailure.of(e);
        }
        BadLines lines = new BadLines();
        List<Integer> stopped = new ArrayList<>();
        tallies.forEach((input, tally) -> {
            lines.add(tally.counts(), input);
            if (tally.stopped()) {
                stopped.add(input);
            }
        });
        if (fleet != null && fleet.refusal != null) {
            throw JobFailure.of(fleet.refusal);
        }
        List<ReplayGroup> groups = new ArrayList<>();
        if (fleet != null) {
            fleet.ordered().forEach(g -> groups.add(g.getValue()));
        }
        checks.check(lines, groups);
        if (!stopped.isEmpty()) {
            // a share of bad lines allowed that the whole read meets, but a file that was mostly bad lines
            int first = stopped.stream().min(Integer::compare).orElseThrow();
            throw new InputException(inputs.get(first).name() + ": more than half of its first "
                    + String.format(Locale.ROOT, "%,d", BadLines.MOSTLY_BAD_MIN_LINES) + " lines or more "
                    + "are bad lines (the reading stopped); not a log of the format, or see --max-bad-lines");
        }
        if (fleet != null && fleet.skipReplay) {
            throw new IllegalStateException("the job counted more bad lines than allowed, the command did not");
        }
        String field = request.format().instanceField();
        if (field != null) {
            for (Map.Entry<String, ReplayGroup> g : fleet.ordered()) {
                if (g.getValue().instance().isEmpty()) {
                    FleetPlan.At at = fleet.groups.get(g.getKey()).first;
                    throw new InputException(
                            "--instance-field " + field + ": "
                                    + inputs.get(at.input()).name() + ":"
                                    + at.line() + " names no proxy instance ("
                                    + g.getValue().label() + ", "
                                    + g.getValue().entries() + (g.getValue().entries() == 1 ? " line" : " lines")
                                    + "); the job keeps a detector per cluster and proxy instance, so every line must name its instance");
                }
            }
        }
        if (parts.size() != groups.size()) {
            throw new IllegalStateException("the job replayed " + parts.size() + " of " + groups.size() + " detectors");
        }
        ReplayOutput head = new ReplayOutput(
                request.logs(),
                request.settings().format().name(),
                lines,
                List.of(),
                null,
                request.compareLabel(),
                request.compareSets(),
                request.compareFile(),
                null,
                null,
                new LogClock(fleet == null ? 0 : fleet.originEpochNanos()),
                request.advice() == null ? FixAdvice.ENVOY : request.advice());
        String report;
        if (request.json()) {
            List<JsonNode> nodes = new ArrayList<>();
            for (String part : parts.values()) {
                try {
                    nodes.add(ResultJson.mapper().readTree(part));
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }
            report = head.json(nodes);
        } else {
            long last =
                    groups.stream().mapToLong(ReplayGroup::lastEpochNanos).max().orElse(Long.MIN_VALUE);
            StringBuilder out = new StringBuilder(head.head(groups.size(), last));
            parts.values().forEach(out::append);
            out.append(ReplayTotalText.render(List.copyOf(totals.values())));
            report = out.toString();
        }
        if (outputDirectory == null) {
            return report;
        }
        Path file = new Path(outputDirectory, request.json() ? "report.json" : "report.txt");
        try (OutputStream o = file.getFileSystem().create(file, FileSystem.WriteMode.OVERWRITE)) {
            o.write(report.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new InputException(
                    "--output-dir " + outputDirectory + ": cannot write " + file + " (" + e.getMessage() + ")");
        }
        return "outlier-lab replay: " + groups.size() + " detectors; the report is " + file + ", each detector's "
                + "decisions in " + new Path(outputDirectory, "detectors") + "\n";
    }

    /** Outcomes on; each input's tally of bad and skipped lines to the side output, counted. */
    static final class SplitTallies extends ProcessFunction<OutcomeChunk, OutcomeChunk> {
        private transient Counter bad;

        @Override
        public void open(OpenContext context) {
            bad = getRuntimeContext().getMetricGroup().counter("badLines");
        }

        @Override
        public void processElement(OutcomeChunk r, Context ctx, Collector<OutcomeChunk> out) {
            if (r.tally == null) {
                out.collect(r);
                return;
            }
            Tally tally = Serial.read(r.tally);
            bad.inc(tally.counts().bad());
            ctx.output(TALLIES, Piece.of(Piece.TALLY, r.input, r.tally, null));
            ctx.output(TALLIES, Piece.of(Piece.PART, r.input, r.plan, null));
        }
    }

    /**
     * The files' parts merged into the plan, with their tallies: refused beyond {@code replay}'s bounds,
     * or marked to skip the replay when the logs hold more bad lines than allowed, before any replay. As above,
     * nothing is thrown.
     */
    static final class MergedPlan implements MapPartitionFunction<Piece, byte[]> {
        private final ReadRecipe recipe;

        MergedPlan(ReadRecipe recipe) {
            this.recipe = recipe;
        }

        @Override
        public void mapPartition(Iterable<Piece> parts, Collector<byte[]> out) {
            FleetPlan plan = new FleetPlan();
            try {
                BadLines lines = new BadLines();
                for (Piece p : parts) {
                    if (p.kind == Piece.TALLY) {
                        Tally tally = Serial.read(p.bytes);
                        lines.add(tally.counts(), p.index);
                        plan.skipReplay |= tally.stopped();
                    } else {
                        plan.merge(Serial.read(p.bytes));
                    }
                }
                plan.skipReplay |= recipe.tooManyBad(lines);
                if (!plan.skipsReplay()) {
                    plan.refuseBeyondBounds(recipe.maxNames());
                }
            } catch (RuntimeException e) {
                plan = FleetPlan.refused(e);
            }
            out.collect(Serial.write(plan));
        }
    }
}
