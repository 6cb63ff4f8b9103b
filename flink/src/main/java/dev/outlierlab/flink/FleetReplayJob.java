package dev.outlierlab.flink;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.report.LogClock;
import dev.outlierlab.report.ReplayTotalText;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.cli.ReplayCommand;
import dev.outlierlab.cli.ReplayOutput;
import dev.outlierlab.config.InputException;
import dev.outlierlab.report.ResultJson;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapPartitionFunction;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
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
    private List<FleetInputs.Input> inputs;

    /**
     * @param outputDirectory where the report and each detector's decisions go, or null (the report is printed)
     * @param eventLogs       also write each detector's decisions as Envoy's outlier event log
     */
    public FleetReplayJob(String outputDirectory, boolean eventLogs) {
        this.outputDirectory = outputDirectory;
        this.eventLogs = eventLogs;
    }

    @Override
    public List<LogInput> inputs(List<String> logs) {
        inputs = FleetInputs.expand(logs);
        List<LogInput> out = new ArrayList<>();
        for (FleetInputs.Input i : inputs) {
            if (out.isEmpty()) {
                try {
                    // the first file's first lines, for format detection; the job reads the files itself
                    out.add(new LogInput(i.name(), null,
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
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        if (request.parallelism() != null) {
            if (request.parallelism() < 1) {
                throw new InputException("--parallelism " + request.parallelism() + ": expected 1 or more");
            }
            env.setParallelism(request.parallelism());
        }
        Path[] paths = inputs.stream().map(FleetInputs.Input::path).toArray(Path[]::new);
        FileSource<OutcomeChunk> source = FileSource.forBulkFileFormat(
                new AccessLogFormat(ReadRecipe.of(request.format(), request.settings()), inputs), paths).build();
        SingleOutputStreamOperator<OutcomeChunk> entries = env.fromSource(source,
                        WatermarkStrategy.<OutcomeChunk>noWatermarks().withTimestampAssigner((r, t) -> r.firstEpochNanos),
                        "access logs")
                .process(new SplitTallies()).name("bad and skipped lines to a side output");
        DataStream<byte[]> plan = entries.fullWindowPartition().mapPartition(new PartialPlans())
                .returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO).name("each worker's detectors")
                .fullWindowPartition().mapPartition(new MergedPlan())
                .returns(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO).setParallelism(1).name("the plan");
        BroadcastStream<byte[]> broadcast = plan.broadcast(ReplayGroups.PLAN);
        DataStream<Piece> sections = entries.keyBy(r -> r.key, org.apache.flink.api.common.typeinfo.Types.LONG).connect(broadcast)
                .process(new ReplayGroups(settings)).returns(Piece.class).name("replay per detector");
        DataStream<Piece> plans = plan.map(b -> Piece.of(Piece.PLAN, 0, b, null)).returns(Piece.class)
                .setParallelism(1).name("plan to the client");
        FleetPlan fleet = null;
        BadLines lines = new BadLines();
        Map<Integer, String> parts = new TreeMap<>();
        Map<Integer, ReplayTotalText.Tally> totals = new TreeMap<>();
        try (CloseableIterator<Piece> it = sections.union(entries.getSideOutput(TALLIES), plans)
                .executeAndCollect("outlier-lab replay of " + inputs.size() + (inputs.size() == 1 ? " log" : " logs"))) {
            while (it.hasNext()) {
                Piece p = it.next();
                switch (p.kind) {
                    case Piece.PLAN -> fleet = Serial.read(p.bytes);
                    case Piece.TALLY -> lines.add(Serial.read(p.bytes), p.index);
                    case Piece.TOTAL -> totals.put(p.index, Serial.read(p.bytes));
                    default -> parts.put(p.index, p.text);
                }
            }
        } catch (Exception e) {
            throw JobFailure.of(e);
        }
        List<ReplayGroup> groups = new ArrayList<>();
        if (fleet != null) {
            fleet.ordered().forEach(g -> groups.add(g.getValue()));
        }
        checks.check(lines, groups);
        String field = request.format().instanceField();
        if (field != null) {
            for (Map.Entry<String, ReplayGroup> g : fleet.ordered()) {
                if (g.getValue().instance().isEmpty()) {
                    FleetPlan.At at = fleet.groups.get(g.getKey()).first;
                    throw new InputException("--instance-field " + field + ": " + inputs.get(at.input()).name() + ":"
                            + at.line() + " names no proxy instance (" + g.getValue().label() + ", "
                            + g.getValue().entries() + (g.getValue().entries() == 1 ? " line" : " lines")
                            + "); the job keeps a detector per cluster and proxy instance, so every line must name its instance");
                }
            }
        }
        if (parts.size() != groups.size()) {
            throw new IllegalStateException("the job replayed " + parts.size() + " of " + groups.size() + " detectors");
        }
        ReplayOutput head = new ReplayOutput(request.logs(), request.settings().format().name(), lines, List.of(),
                null, request.compareLabel(), request.compareSets(), request.compareFile(), null, null,
                new LogClock(fleet == null ? 0 : fleet.originEpochNanos()), FixAdvice.ENVOY);
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
            long last = groups.stream().mapToLong(ReplayGroup::lastEpochNanos).max().orElse(Long.MIN_VALUE);
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
            throw new InputException("--output-dir " + outputDirectory + ": cannot write " + file + " (" + e.getMessage() + ")");
        }
        return "outlier-lab replay: " + groups.size() + " detectors; the report is " + file + ", each detector's "
                + "decisions in " + new Path(outputDirectory, "detectors") + "\n";
    }

    /** Outcomes on; each input's tally of bad and skipped lines to the side output, counted. */
    static final class SplitTallies extends ProcessFunction<OutcomeChunk, OutcomeChunk> {
        private transient org.apache.flink.metrics.Counter bad;

        @Override
        public void open(org.apache.flink.api.common.functions.OpenContext context) {
            bad = getRuntimeContext().getMetricGroup().counter("badLines");
        }

        @Override
        public void processElement(OutcomeChunk r, Context ctx, Collector<OutcomeChunk> out) {
            if (r.tally == null) {
                out.collect(r);
                return;
            }
            BadLines.Counts counts = Serial.read(r.tally);
            bad.inc(counts.bad());
            ctx.output(TALLIES, Piece.of(Piece.TALLY, r.input, r.tally, null));
        }
    }

    /** One worker's part of the plan. */
    static final class PartialPlans implements MapPartitionFunction<OutcomeChunk, byte[]> {
        @Override
        public void mapPartition(Iterable<OutcomeChunk> records, Collector<byte[]> out) {
            FleetPlan plan = new FleetPlan();
            for (OutcomeChunk r : records) {
                plan.add(r);
            }
            out.collect(Serial.write(plan));
        }
    }

    /** The workers' parts merged into the plan. */
    static final class MergedPlan implements MapPartitionFunction<byte[], byte[]> {
        @Override
        public void mapPartition(Iterable<byte[]> parts, Collector<byte[]> out) {
            FleetPlan plan = new FleetPlan();
            for (byte[] p : parts) {
                plan.merge(Serial.read(p));
            }
            out.collect(Serial.write(plan));
        }
    }
}
