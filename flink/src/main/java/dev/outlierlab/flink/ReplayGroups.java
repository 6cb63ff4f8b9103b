package dev.outlierlab.flink;

import dev.outlierlab.accesslog.LineOutcome;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.report.EnvoyEventLog;
import dev.outlierlab.report.LogClock;
import dev.outlierlab.report.ReplayOutput;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Replays each detector's outcomes, as they arrive for its key, through the engine for each of the settings at
 * once ({@link LogReplay.GroupReplay}, what {@code replay} runs), then renders the detector's section of the
 * report with {@code replay}'s own renderer ({@link ReplayOutput#section}), and with {@code --output-dir} writes the
 * detector's decisions (every one) and, asked, Envoy's event log of them. The plan arrives first (in batch
 * execution the broadcast input is read before the keyed one); each key's chunks arrive together, by their first
 * end time (batch execution sorts by key, a hash of the detector, then timestamp), and are merged back into the
 * merged logs' order (end time, input, line) before they are replayed.
 */
final class ReplayGroups extends KeyedBroadcastProcessFunction<Long, OutcomeChunk, byte[], Piece> {
    static final MapStateDescriptor<String, byte[]> PLAN = new MapStateDescriptor<>(
            "plan", BasicTypeInfo.STRING_TYPE_INFO, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    private static final LineOutcome[] OUTCOMES = LineOutcome.values();
    /** The merged logs' order: end time, then input, then line. */
    private static final Comparator<Cursor> ORDER = ReplayGroups::inOrder;

    private final FleetSettings settings;
    private transient Map<String, Integer> index;
    private transient List<ReplayGroup> groups;
    private transient long origin;
    private transient Scenario first;
    private transient Scenario second;
    /** The detectors of the current key (one, unless their hashes collide), by their text. */
    private transient Map<String, Detector> active;
    /** The plan says the logs are refused: nothing is replayed. */
    private transient boolean skip;

    ReplayGroups(FleetSettings settings) {
        this.settings = settings;
    }

    @Override
    public void processBroadcastElement(byte[] plan, Context ctx, Collector<Piece> out) {
        FleetPlan p = Serial.read(plan);
        skip = p.skipsReplay();
        if (skip) {
            return; // the logs are refused: the command says why
        }
        index = new HashMap<>();
        groups = new ArrayList<>();
        for (Map.Entry<String, ReplayGroup> e : p.ordered()) {
            index.put(e.getKey(), groups.size());
            groups.add(e.getValue());
        }
        origin = p.originEpochNanos();
        first = settings.first();
        second = settings.second();
        active = new HashMap<>();
    }

    @Override
    public void processElement(OutcomeChunk r, ReadOnlyContext ctx, Collector<Piece> out) {
        if (skip) {
            return;
        }
        Detector d = active.get(r.group);
        if (d == null) {
            if (active.isEmpty()) {
                ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            }
            d = new Detector(index.get(r.group));
            active.put(r.group, d);
        }
        try {
            d.add(r);
        } catch (RuntimeException e) {
            throw JobFailure.notRetried(e);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Piece> out) throws IOException {
        if (skip) {
            return;
        }
        List<Detector> done = new ArrayList<>(active.values());
        active.clear();
        done.sort(Comparator.comparingInt(d -> d.index));
        try {
            for (Detector d : done) {
                d.finish(out);
            }
        } catch (RuntimeException e) {
            throw JobFailure.notRetried(e);
        }
    }

    /** The merged logs' order of two cursors' outcomes: end time, then input, then line. */
    private static int inOrder(Cursor a, Cursor b) {
        if (a.time != b.time) {
            return a.time < b.time ? -1 : 1;
        }
        if (a.input != b.input) {
            return a.input < b.input ? -1 : 1;
        }
        return Long.compare(a.line, b.line);
    }

    /** The next outcome of a chunk. */
    private static final class Cursor {
        final OutcomeChunk chunk;
        final int input;
        /** Per host of the chunk's table, its slot in each of the detector's replays. */
        final int[][] slots;

        int at;
        long time;
        long line;

        Cursor(OutcomeChunk chunk, Map<String, int[]> hosts) {
            this.chunk = chunk;
            this.input = chunk.input;
            slots = new int[chunk.hosts.length][];
            for (int h = 0; h < slots.length; h++) {
                slots[h] = hosts.get(chunk.hosts[h]);
            }
            load();
        }

        /** Loads the outcome at {@link #at}; false when the chunk is done. */
        boolean load() {
            if (at >= chunk.count) {
                return false;
            }
            time = chunk.endEpochNanos(at);
            line = chunk.line(at);
            return true;
        }
    }

    /**
     * One detector's replays (one per setting), fed in the merged logs' order: its chunks arrive by first end
     * time, each in its input's order, so every outcome before the newest chunk's first can go (a heap of the
     * chunks' next outcomes, by end time, input, line); the rest waits for the next chunk or the end.
     */
    private final class Detector {
        final int index;
        final LogReplay.GroupReplay[] replays;
        final Map<String, int[]> hosts = new HashMap<>();
        final PriorityQueue<Cursor> heads = new PriorityQueue<>(ORDER);
        long released = Long.MIN_VALUE;

        Detector(int index) {
            this.index = index;
            ReplayGroup g = groups.get(index);
            Scenario[] scenarios = second == null ? new Scenario[] {first} : new Scenario[] {first, second};
            boolean[] given = {settings.firstHostsGiven(), settings.secondHostsGiven()};
            replays = new LogReplay.GroupReplay[scenarios.length];
            for (int s = 0; s < scenarios.length; s++) {
                replays[s] = new LogReplay.GroupReplay(
                        g,
                        LogReplay.scenarioFor(scenarios[s], given[s], g, origin, settings.durationNanos()),
                        origin,
                        RunOptions.DEFAULT);
            }
            for (String h : g.hosts()) {
                int[] at = new int[replays.length];
                for (int s = 0; s < replays.length; s++) {
                    at[s] = replays[s].host(h);
                }
                hosts.put(h, at);
            }
        }

        void add(OutcomeChunk c) {
            if (c.firstEpochNanos < released) {
                throw new IllegalStateException("the outcomes of " + c.group + " arrived out of time order");
            }
            release(c.firstEpochNanos);
            heads.add(new Cursor(c, hosts));
        }

        /**
         * Replays every held outcome that ended before {@code before}, in the merged order: the first chunk's
         * outcomes one after another for as long as they come before every other chunk's next one (the heap is
         * asked again only when another chunk's outcome comes first).
         */
        private void release(long before) {
            Cursor k = heads.peek();
            while (k != null && k.time < before) {
                heads.poll();
                Cursor next = heads.peek();
                boolean more;
                do {
                    OutcomeChunk c = k.chunk;
                    int[] at = k.slots[c.hostIndex(k.at)];
                    LineOutcome o = OUTCOMES[c.outcome(k.at)];
                    int code = c.code(k.at);
                    for (int s = 0; s < replays.length; s++) {
                        replays[s].offer(k.time, at[s], code, o, k.line);
                    }
                    released = k.time;
                    k.at++;
                    more = k.load();
                } while (more && k.time < before && (next == null || inOrder(k, next) < 0));
                if (more) {
                    heads.add(k);
                }
                k = heads.peek();
            }
        }

        void finish(Collector<Piece> out) throws IOException {
            release(Long.MAX_VALUE);
            LogReplay.GroupResult a = replays[0].finish();
            LogReplay.GroupResult b = replays.length > 1 ? replays[1].finish() : null;
            ReplayOutput one = new ReplayOutput(
                    settings.logs(),
                    settings.formatName(),
                    null,
                    List.of(a),
                    b == null ? null : List.of(b),
                    settings.compareLabel(),
                    settings.compareSets(),
                    settings.compareFile(),
                    null,
                    null,
                    new LogClock(origin),
                    settings.advice());
            String section =
                    settings.json() ? ResultJson.write(one.sectionJson(0)) : one.section(0, settings.maxEvents());
            out.collect(Piece.of(Piece.SECTION, index, null, section));
            if (!settings.json()) {
                out.collect(Piece.of(Piece.TOTAL, index, Serial.write(ReplayOutput.tally(a)), null));
            }
            if (settings.outputDirectory() != null) {
                write(String.format("%06d.txt", index), one.section(0, Integer.MAX_VALUE));
                if (settings.eventLogs()) {
                    String cluster = a.group().cluster().isEmpty()
                            ? a.scenario().name()
                            : a.group().cluster();
                    Instant start = Instant.ofEpochSecond(0, origin);
                    write(
                            String.format("%06d.envoy-events.log", index),
                            EnvoyEventLog.render(a.result().run(), cluster, start));
                }
            }
        }
    }

    private void write(String name, String text) throws IOException {
        Path path = new Path(new Path(settings.outputDirectory(), "detectors"), name);
        FileSystem fs = path.getFileSystem();
        try (OutputStream o = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
