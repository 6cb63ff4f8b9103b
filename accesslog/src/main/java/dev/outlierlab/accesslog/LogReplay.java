package dev.outlierlab.accesslog;

import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.ReplayResult;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.TraceReplay;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The replay of a scan's spooled outcomes: every outcome goes, at its time since the replay's origin, to its group's {@link TraceReplay}
 * (one detector per cluster and proxy instance), all fed from one stream in time order. Each entry becomes the
 * {@link TraceRecord} of the calls Envoy's router made ({@link LineOutcome}). An outcome of a host the lab has
 * ejected is counted as traffic the ejection would have moved, and not reported to that host: its detector in
 * Envoy would not have seen it (unless the cluster is in panic, when Envoy routes to ejected hosts too).
 */
public final class LogReplay {
    private LogReplay() {}

    /** One group's replay. */
    public record GroupResult(ReplayGroup group, Scenario scenario, ReplayResult result) {}

    /**
     * The scenario a group replays with: the base scenario's settings, its hosts unless {@code hostsGiven}, and a
     * duration that runs the ticks through the interval holding the group's last outcome (or {@code durationNanos}).
     */
    public static Scenario scenarioFor(
            Scenario base, boolean hostsGiven, ReplayGroup group, long originEpochNanos, Long durationNanos) {
        List<String> hosts = hostsGiven ? base.cluster().hosts() : group.hosts();
        long duration;
        if (durationNanos != null) {
            duration = durationNanos;
        } else {
            long interval = base.outlierDetection().intervalNanos();
            long last = group.lastEpochNanos() - originEpochNanos;
            duration = (last / interval + 1) * interval;
        }
        return base.toBuilder()
                .durationNanos(duration)
                .cluster(new ClusterSpec(hosts, base.cluster().panicThresholdPercent()))
                .faults(List.of())
                .load(LoadSpec.NONE)
                .routing(RoutingSpec.NONE)
                .build();
    }

    /**
     * The results by proxy instance, then cluster, in name order: the same logs give the same order whichever
     * proxy's first line came first.
     */
    public static List<GroupResult> inStableOrder(List<GroupResult> results) {
        List<GroupResult> sorted = new ArrayList<>(results);
        sorted.sort(Comparator.comparing((GroupResult g) -> g.group().instance())
                .thenComparing(g -> g.group().cluster()));
        return sorted;
    }

    /**
     * Replays every group of {@code scan} (its spooled outcomes) with the scenario {@code scenarios} gives it.
     * A scan can be replayed several times (with different settings, for a comparison).
     * A group's host that the scenario does not have cannot occur: the scan counted such lines as bad.
     */
    public static List<GroupResult> replay(
            LogScan.Result scan, Function<ReplayGroup, Scenario> scenarios, RunOptions options) {
        int n = scan.groups().size();
        GroupReplay[] replays = new GroupReplay[n];
        int[][] hostIndex = new int[n][];
        for (int g = 0; g < n; g++) {
            ReplayGroup group = scan.groups().get(g);
            replays[g] = new GroupReplay(group, scenarios.apply(group), scan.originEpochNanos(), options);
            hostIndex[g] = new int[group.hosts().size()];
            for (int h = 0; h < group.hosts().size(); h++) {
                hostIndex[g][h] = replays[g].host(group.hosts().get(h));
            }
        }
        OutcomeSpool spool = scan.spool;
        spool.startReading();
        OutcomeSpool.Row row = new OutcomeSpool.Row();
        while (spool.read(row)) {
            replays[row.group].offer(
                    row.endEpochNanos, hostIndex[row.group][row.host], row.code, row.outcome, row.line);
        }
        List<GroupResult> out = new ArrayList<>(n);
        for (GroupReplay r : replays) {
            out.add(r.finish());
        }
        return out;
    }

    /**
     * One group's replay, fed its outcomes one at a time in the order of the merged logs (end time, then the
     * input given first, then line): what {@link #replay} does for every group of a scan, for a reader that has
     * the group's outcomes without a scan (a distributed job, where each group's lines arrive at one worker).
     */
    public static final class GroupReplay {
        private final ReplayGroup group;
        private final Scenario scenario;
        private final TraceReplay replay;
        private final Map<String, Integer> hostIndex = new HashMap<>();
        private final long originEpochNanos;

        /**
         * @param scenario         the group's scenario ({@link #scenarioFor})
         * @param originEpochNanos the replay's time zero: the earliest outcome of all the logs
         */
        public GroupReplay(ReplayGroup group, Scenario scenario, long originEpochNanos, RunOptions options) {
            this.group = group;
            this.scenario = scenario;
            this.originEpochNanos = originEpochNanos;
            this.replay = new TraceReplay(scenario, options, true);
            List<String> names = scenario.cluster().hosts();
            for (int h = 0; h < names.size(); h++) {
                hostIndex.put(names.get(h), h);
            }
        }

        /** The index of the host named {@code name} among the scenario's hosts, or -1. */
        public int host(String name) {
            return hostIndex.getOrDefault(name, -1);
        }

        /** Replays one outcome of host number {@code host} ({@link #host}) that ended at {@code endEpochNanos}. */
        public void offer(long endEpochNanos, int host, int code, LineOutcome o, long line) {
            replay.offer(
                    endEpochNanos - originEpochNanos,
                    host,
                    code(o, code),
                    o.reported() ? o.result() : unreported(o),
                    line,
                    o.connected());
        }

        /** Runs the ticks due at or before {@code endEpochNanos} without an outcome ({@link TraceReplay#advanceTo}). */
        public void advanceTo(long endEpochNanos) {
            replay.advanceTo(endEpochNanos - originEpochNanos);
        }

        /** The decisions made so far, times from the origin ({@link TraceReplay#decisions}). */
        public List<OutlierEvent> decisions() {
            return replay.decisions();
        }

        /** Runs the ticks to the scenario's duration and returns the group's result. */
        public GroupResult finish() {
            return new GroupResult(group, scenario, replay.finish());
        }
    }

    /**
     * The trace record of the calls Envoy's router made for this entry: the outcome's result (none for a response)
     * after a connect success when it came over a connection. The replay reports the same fields without the record.
     */
    static TraceRecord record(LineOutcome o, int code, long line, long nanos, int host) {
        if (!o.reported()) {
            unreported(o);
        }
        return new TraceRecord(nanos, host, code(o, code), o.result(), line, o.connected());
    }

    /** The code reported for an outcome: the logged one, a timeout's (504 when none was logged), or none (-1). */
    private static int code(LineOutcome o, int code) {
        return switch (o) {
            case RESPONSE -> code;
            case TIMEOUT -> OutcomeMapping.timeoutCode(code);
            default -> -1;
        };
    }

    private static RequestResult unreported(LineOutcome o) {
        throw new IllegalArgumentException("not reported to a detector: " + o);
    }
}
