package dev.outlierlab.flink;

import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.accesslog.Outcome;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.cli.ReplayOutput;
import dev.outlierlab.report.EnvoyEventLog;
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
 * report with {@code replay}'s own renderer ({@link ReplayOutput#section}), and with {@code --output} writes the
 * detector's decisions (every one) and, asked, Envoy's event log of them. The plan arrives first (in batch
 * execution the broadcast input is read before the keyed one); each key's outcomes arrive together, by time
 * (batch execution sorts by key, then timestamp: the end time); outcomes of the same nanosecond are put in the
 * merged logs' order (input, then line) before they are replayed.
 */
final class ReplayGroups extends KeyedBroadcastProcessFunction<String, LogRecord, byte[], Piece> {
    static final MapStateDescriptor<String, byte[]> PLAN = new MapStateDescriptor<>("plan",
            BasicTypeInfo.STRING_TYPE_INFO, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final Comparator<LogRecord> SAME_TIME = Comparator.<LogRecord>comparingInt(r -> r.input)
            .thenComparingLong(r -> r.line);

    private final FleetSettings settings;
    private transient Map<String, Integer> index;
    private transient List<ReplayGroup> groups;
    private transient long origin;
    private transient Scenario first;
    private transient Scenario second;
    private transient String key;
    private transient LogReplay.GroupReplay[] replays;
    private transient Map<String, int[]> hosts;
    private transient List<LogRecord> sameTime;
    private transient long time;

    ReplayGroups(FleetSettings settings) {
        this.settings = settings;
    }

    @Override
    public void processBroadcastElement(byte[] plan, Context ctx, Collector<Piece> out) {
        FleetPlan p = Serial.read(plan);
        index = new HashMap<>();
        groups = new ArrayList<>();
        for (Map.Entry<String, ReplayGroup> e : p.ordered()) {
            index.put(e.getKey(), groups.size());
            groups.add(e.getValue());
        }
        origin = p.originEpochNanos();
        first = settings.first();
        second = settings.second();
        sameTime = new ArrayList<>();
    }

    @Override
    public void processElement(LogRecord r, ReadOnlyContext ctx, Collector<Piece> out) {
        if (!r.group.equals(key)) {
            start(r.group);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        } else if (r.endEpochNanos != time) {
            if (r.endEpochNanos < time) {
                throw new IllegalStateException("the outcomes of " + r.group + " arrived out of time order");
            }
            flush();
        }
        time = r.endEpochNanos;
        sameTime.add(r);
    }

    private void start(String group) {
        key = group;
        ReplayGroup g = groups.get(index.get(group));
        Scenario[] scenarios = second == null ? new Scenario[] {first} : new Scenario[] {first, second};
        boolean[] given = {settings.firstHostsGiven(), settings.secondHostsGiven()};
        replays = new LogReplay.GroupReplay[scenarios.length];
        hosts = new HashMap<>();
        for (int s = 0; s < scenarios.length; s++) {
            replays[s] = new LogReplay.GroupReplay(g, LogReplay.scenarioFor(scenarios[s], given[s], g, origin,
                    settings.durationNanos()), origin, RunOptions.DEFAULT);
        }
        for (String h : g.hosts()) {
            int[] at = new int[replays.length];
            for (int s = 0; s < replays.length; s++) {
                at[s] = replays[s].host(h);
            }
            hosts.put(h, at);
        }
        time = Long.MIN_VALUE;
        sameTime.clear();
    }

    private void flush() {
        if (sameTime.size() > 1) {
            sameTime.sort(SAME_TIME);
        }
        for (LogRecord r : sameTime) {
            int[] at = hosts.get(r.host);
            for (int s = 0; s < replays.length; s++) {
                replays[s].offer(r.endEpochNanos, at[s], r.code, OUTCOMES[r.outcome], r.line);
            }
        }
        sameTime.clear();
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Piece> out) throws IOException {
        flush();
        int i = index.get(key);
        LogReplay.GroupResult a = replays[0].finish();
        LogReplay.GroupResult b = replays.length > 1 ? replays[1].finish() : null;
        ReplayOutput one = new ReplayOutput(settings.logs(), settings.formatName(), null, List.of(a),
                b == null ? null : List.of(b), settings.compareLabel(), settings.compareSets(),
                settings.compareFile(), null, null);
        String section = settings.json() ? ResultJson.write(one.sectionJson(0)) : one.section(0, settings.maxEvents());
        out.collect(Piece.of(Piece.SECTION, i, null, section));
        if (settings.outputDirectory() != null) {
            write(String.format("%06d.txt", i), one.section(0, Integer.MAX_VALUE));
            if (settings.eventLogs()) {
                String cluster = a.group().cluster().isEmpty() ? a.scenario().name() : a.group().cluster();
                Instant start = Instant.ofEpochSecond(0, origin);
                write(String.format("%06d.envoy-events.log", i), EnvoyEventLog.render(a.result().run(), cluster, start));
            }
        }
        key = null;
        replays = null;
    }

    private void write(String name, String text) throws IOException {
        Path path = new Path(new Path(settings.outputDirectory(), "detectors"), name);
        FileSystem fs = path.getFileSystem();
        try (OutputStream o = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
