package dev.outlierlab.accesslog;

import dev.outlierlab.engine.envoy.RequestResult;
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
import java.util.function.Function;

/**
 * The replay of a scan's spooled outcomes: every outcome goes, at its time since the replay's origin, to its group's {@link TraceReplay}
 * (one detector per cluster and proxy instance), all fed from one stream in time order. Each entry becomes the
 * {@link TraceRecord} of the calls Envoy's router made ({@link Outcome}). An outcome of a host the lab has
 * ejected is counted as traffic the ejection would have moved, and not reported to that host: its detector in
 * Envoy would not have seen it (unless the cluster is in panic, when Envoy routes to ejected hosts too).
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

    /**
     * Replays every group of {@code scan} (its spooled outcomes) with the scenario {@code scenarios} gives it.
     * A scan can be replayed several times (with different settings, for a comparison).
     * A group's host that the scenario does not have cannot occur: the scan counted such lines as bad.
     */
    public static List<GroupResult> replay(LogScan.Result scan, Function<ReplayGroup, Scenario> scenarios,
                                           RunOptions options) {
        int n = scan.groups().size();
        Scenario[] scenario = new Scenario[n];
        TraceReplay[] replays = new TraceReplay[n];
        int[][] hostIndex = new int[n][];
        for (int g = 0; g < n; g++) {
            ReplayGroup group = scan.groups().get(g);
            scenario[g] = scenarios.apply(group);
            replays[g] = new TraceReplay(scenario[g], options, true);
            Map<String, Integer> index = new HashMap<>();
            List<String> names = scenario[g].cluster().hosts();
            for (int h = 0; h < names.size(); h++) {
                index.put(names.get(h), h);
            }
            hostIndex[g] = new int[group.hosts().size()];
            for (int h = 0; h < group.hosts().size(); h++) {
                hostIndex[g][h] = index.get(group.hosts().get(h));
            }
        }
        long origin = scan.originEpochNanos();
        OutcomeSpool spool = scan.spool;
        spool.startReading();
        OutcomeSpool.Row row = new OutcomeSpool.Row();
        while (spool.read(row)) {
            Outcome o = row.outcome;
            replays[row.group].offer(row.endEpochNanos - origin, hostIndex[row.group][row.host], code(o, row.code),
                    o.reported() ? o.result() : unreported(o), row.line, o.connected());
        }
        List<GroupResult> out = new ArrayList<>(n);
        for (int k = 0; k < n; k++) {
            out.add(new GroupResult(scan.groups().get(k), scenario[k], replays[k].finish()));
        }
        return out;
    }

    /**
     * The trace record of the calls Envoy's router made for this entry: the outcome's result (none for a response)
     * after a connect success when it came over a connection. The replay reports the same fields without the record.
     */
    static TraceRecord record(Outcome o, int code, long line, long nanos, int host) {
        if (!o.reported()) {
            unreported(o);
        }
        return new TraceRecord(nanos, host, code(o, code), o.result(), line, o.connected());
    }

    /** The code reported for an outcome: the logged one, a timeout's (504 when none was logged), or none (-1). */
    private static int code(Outcome o, int code) {
        return switch (o) {
            case RESPONSE -> code;
            case TIMEOUT -> OutcomeMapping.timeoutCode(code);
            default -> -1;
        };
    }

    private static RequestResult unreported(Outcome o) {
        throw new IllegalArgumentException("not reported to a detector: " + o);
    }
}
