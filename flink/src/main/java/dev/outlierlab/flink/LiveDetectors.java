package dev.outlierlab.flink;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.accesslog.LineOutcome;
import dev.outlierlab.accesslog.LogReplay;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The live replay's detectors, one per cluster and proxy instance (the key), each fed its outcomes as they arrive
 * and handing on every decision as it is made: the engine {@code replay} runs ({@link LogReplay.GroupReplay}) over
 * the same outcomes in the same order. Outcomes wait in a reorder window ({@code --reorder-window}, as
 * {@code replay}'s reader holds them) and go to the engine in end-time order once the newest outcome is a window
 * past them; one that ends before an outcome already replayed is a bad line, as in {@code replay}.
 *
 * <p>A stream cannot know the hosts it has not seen yet, and a detector's decisions depend on how many hosts its
 * cluster has (the ejection cap): each detector has {@code --hosts N} slots, filled by the log's addresses in the
 * order they first appear (as {@code replay} orders them), and a line of an address beyond the N-th is a bad line.
 * Its time zero is {@code start=} of the topic, else its first outcome. At the end of a bounded read (the final
 * watermark) the held outcomes are replayed and the ticks run through the interval of the last one, as
 * {@code replay}'s do.
 */
final class LiveDetectors extends KeyedProcessFunction<String, LiveOutcome, LiveNote> {
    private static final LineOutcome[] OUTCOMES = LineOutcome.values();
    private static final Comparator<LiveOutcome> ORDER = Comparator.<LiveOutcome>comparingLong(o -> o.endEpochNanos)
            .thenComparingInt(o -> o.partition)
            .thenComparingLong(o -> o.offset);

    private final FleetSettings settings;
    private final long reorderWindowNanos;
    private final Long startEpochNanos;
    private transient Map<String, Detector> detectors;

    LiveDetectors(FleetSettings settings, long reorderWindowNanos, Long startEpochNanos) {
        this.settings = settings;
        this.reorderWindowNanos = reorderWindowNanos;
        this.startEpochNanos = startEpochNanos;
    }

    @Override
    public void processElement(LiveOutcome o, Context ctx, Collector<LiveNote> out) {
        if (detectors == null) {
            detectors = new HashMap<>();
        }
        Detector d = detectors.get(o.group);
        if (d == null) {
            d = new Detector(o.cluster, o.instance);
            detectors.put(o.group, d);
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        }
        d.add(o, out);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<LiveNote> out) {
        Detector d = detectors == null ? null : detectors.remove(ctx.getCurrentKey());
        if (d != null) {
            d.end(out);
        }
    }

    private final class Detector {
        final String cluster;
        final String instance;
        final PriorityQueue<LiveOutcome> held = new PriorityQueue<>(ORDER);
        final Map<String, Integer> slots = new HashMap<>();
        final List<String> names = new ArrayList<>();
        final int capacity;
        LogReplay.GroupReplay replay;
        long origin;
        long latest = Long.MIN_VALUE;
        long released = Long.MIN_VALUE;
        long outcomes;
        int told;

        Detector(String cluster, String instance) {
            this.cluster = cluster;
            this.instance = instance;
            this.capacity = settings.first().cluster().hosts().size();
        }

        void add(LiveOutcome o, Collector<LiveNote> out) {
            if (o.endEpochNanos < released) {
                out.collect(LiveNote.of(
                        LiveNote.BAD,
                        where(o) + ": ends " + Durations.format(released - o.endEpochNanos)
                                + " before a line already replayed, more than the reorder window ("
                                + Durations.format(reorderWindowNanos) + "); widen it with --reorder-window",
                        0));
                return;
            }
            held.add(o);
            latest = Math.max(latest, o.endEpochNanos);
            while (!held.isEmpty() && held.peek().endEpochNanos <= latest - reorderWindowNanos) {
                release(held.poll(), out);
            }
        }

        void end(Collector<LiveNote> out) {
            while (!held.isEmpty()) {
                release(held.poll(), out);
            }
            if (replay != null) {
                long interval = settings.first().outlierDetection().intervalNanos();
                long last = released - origin;
                replay.advanceTo(origin + (last / interval + 1) * interval);
                tell(out);
            }
            out.collect(LiveNote.of(LiveNote.DETECTOR, label(), outcomes));
        }

        private void release(LiveOutcome o, Collector<LiveNote> out) {
            Integer slot = slots.get(o.host);
            if (slot == null) {
                if (names.size() == capacity) {
                    out.collect(LiveNote.of(
                            LiveNote.BAD,
                            where(o) + ": upstream host \"" + o.host + "\" is one more than the " + capacity
                                    + " hosts of " + label() + " (--hosts " + capacity + ")",
                            0));
                    return;
                }
                slot = names.size();
                slots.put(o.host, slot);
                names.add(o.host);
            }
            if (replay == null) {
                origin = startEpochNanos != null ? Math.min(startEpochNanos, o.endEpochNanos) : o.endEpochNanos;
                replay = start();
            }
            replay.offer(o.endEpochNanos, slot, o.code, OUTCOMES[o.outcome], o.offset + 1);
            released = o.endEpochNanos;
            outcomes++;
            tell(out);
        }

        /** The engine with {@code capacity} hosts, named for now by their slots (the log names them). */
        private LogReplay.GroupReplay start() {
            Scenario base = settings.first();
            List<String> slotNames = new ArrayList<>(capacity);
            for (int h = 0; h < capacity; h++) {
                slotNames.add("#" + h);
            }
            Scenario scenario = base.toBuilder()
                    .durationNanos(Durations.MAX_NANOS)
                    .cluster(new ClusterSpec(slotNames, base.cluster().panicThresholdPercent()))
                    .faults(List.of())
                    .load(LoadSpec.NONE)
                    .routing(RoutingSpec.NONE)
                    .build();
            ReplayGroup group = new ReplayGroup(cluster, instance, slotNames, origin, origin, 0);
            return new LogReplay.GroupReplay(group, scenario, origin, RunOptions.DEFAULT);
        }

        /** Hands on the decisions made since the last ones. */
        private void tell(Collector<LiveNote> out) {
            List<OutlierEvent> decisions = replay.decisions();
            while (told < decisions.size()) {
                out.collect(LiveNote.of(LiveNote.DECISION, json(decisions.get(told++)), 0));
            }
        }

        private String json(OutlierEvent e) {
            long at = origin + e.timeNanos();
            ObjectNode n = ResultJson.mapper().createObjectNode();
            n.put(
                    "time",
                    Instant.ofEpochSecond(Math.floorDiv(at, 1_000_000_000L), Math.floorMod(at, 1_000_000_000L))
                            .toString());
            n.put("time_ns", at);
            n.put("cluster", cluster);
            n.put("instance", instance);
            n.put("host", names.get(Integer.parseInt(e.host().substring(1))));
            n.put("action", e.action().jsonName());
            n.put("type", e.type() == null ? null : e.type().name());
            return n.toString();
        }

        private String label() {
            return new ReplayGroup(cluster, instance, List.of(), 0, 0, 0).label();
        }

        private String where(LiveOutcome o) {
            return "partition " + o.partition + " offset " + o.offset;
        }
    }
}
