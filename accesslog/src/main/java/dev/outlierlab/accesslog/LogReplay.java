package dev.outlierlab.accesslog;

import dev.outlierlab.engine.RequestResult;
import dev.outlierlab.sim.ReplayResult;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.TraceReplay;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The second pass: every entry goes, at its time since the replay's origin, to its group's {@link TraceReplay}
 * (one detector per cluster and proxy instance), all fed from one merged stream. Each entry becomes the
 * {@link TraceRecord} of the calls Envoy's router made ({@link Outcome}).
 */
public final class LogReplay {
    private LogReplay() {
    }

    /** One group's replay. */
    public record GroupResult(ReplayGroup group, Scenario scenario, ReplayResult result) {
    }

    /**
     * The scenario a group replays with: the base scenario's settings, its hosts unless {@code hostsGiven}, and a
     * duration that runs the ticks through the interval holding the group's last outcome (or {@code durationNanos}).
     */
    public static Scenario scenarioFor(Scenario base, boolean hostsGiven, ReplayGroup group, long originEpochNanos,
                                       Long durationNanos) {
        List<String> hosts = hostsGiven ? base.cluster().hosts() : group.hosts();
        long duration;
        if (durationNanos != null) {
            duration = durationNanos;
        } else {
            long interval = base.outlierDetection().intervalNanos();
            long last = group.lastEpochNanos() - originEpochNanos;
            duration = (last / interval + 1) * interval;
        }
        return new Scenario(base.name(), duration, base.seed(),
                new ClusterSpec(hosts, base.cluster().panicThresholdPercent()), base.traffic(), List.of(),
                base.outlierDetection(), base.healthChecks());
    }

    /** Replays every group of {@code scan} with the scenario {@code scenarios} gives it. */
    public static List<GroupResult> replay(List<LogInput> inputs, ReadSettings settings, LogScan.Result scan,
                                           java.util.function.Function<ReplayGroup, Scenario> scenarios,
                                           RunOptions options, LongConsumer progress) {
        int n = scan.groups().size();
        Map<String, Integer> groupIndex = new HashMap<>();
        Scenario[] scenario = new Scenario[n];
        TraceReplay[] replays = new TraceReplay[n];
        List<Map<String, Integer>> hostIndex = new ArrayList<>();
        for (int g = 0; g < n; g++) {
            ReplayGroup group = scan.groups().get(g);
            groupIndex.put(group.cluster() + '\u0000' + group.instance(), g);
            scenario[g] = scenarios.apply(group);
            replays[g] = new TraceReplay(scenario[g], options);
            Map<String, Integer> hosts = new HashMap<>();
            List<String> names = scenario[g].cluster().hosts();
            for (int h = 0; h < names.size(); h++) {
                hosts.put(names.get(h), h);
            }
            hostIndex.add(hosts);
        }
        long origin = scan.originEpochNanos();
        String lastCluster = null;
        String lastInstance = null;
        int g = -1;
        try (MergedLog log = new MergedLog(inputs, settings, new BadLines(), progress)) {
            for (LogEntry e = log.next(); e != null; e = log.next()) {
                if (e.cluster() != lastCluster || e.instance() != lastInstance) {
                    g = groupIndex.get(LogScan.key(e));
                    lastCluster = e.cluster();
                    lastInstance = e.instance();
                }
                Integer host = hostIndex.get(g).get(e.host());
                replays[g].offer(record(e, e.endEpochNanos() - origin, host));
            }
        }
        List<GroupResult> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(new GroupResult(scan.groups().get(k), scenario[k], replays[k].finish()));
        }
        return out;
    }

    /** The trace record of the calls Envoy's router made for this entry. */
    static TraceRecord record(LogEntry e, long nanos, int host) {
        Outcome o = e.outcome();
        return switch (o) {
            case RESPONSE -> new TraceRecord(nanos, host, e.code(), null, e.line(), true);
            case TIMEOUT -> new TraceRecord(nanos, host, OutcomeMapping.timeoutCode(e.code()),
                    RequestResult.LOCAL_ORIGIN_TIMEOUT, e.line(), true);
            case CONNECT_FAILED, RESET, CONNECTED_ONLY -> new TraceRecord(nanos, host, -1, o.result(), e.line(),
                    o.connected());
            default -> throw new IllegalArgumentException("not reported to a detector: " + o);
        };
    }
}
