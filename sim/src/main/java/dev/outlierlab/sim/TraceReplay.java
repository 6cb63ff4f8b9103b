package dev.outlierlab.sim;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.trace.TraceOrderException;
import dev.outlierlab.sim.trace.TraceRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Replays observed outcomes instead of synthetic traffic: the scenario's cluster, outlier settings, health
 * checks and duration apply; its traffic and faults do not. Before each record, the ticks due at or before its
 * time run (docs/model.md); after the last, ticks run on to the duration. Records are reported as given (a
 * {@link TraceRecord#connected() connected} record first reports the connect success, as Envoy's router does).
 * There is no routing: the replay counts, per host, what arrived while the lab had it ejected ({@link HostTraffic}).
 * An outcome trace reports those records to the host all the same (Envoy's own tests do so); observed traffic
 * ({@code movedWhileEjected}, an access log routed under other settings) does not, because under the lab's
 * settings those requests would have gone to other hosts and the ejected host's detector would not have seen
 * them (except in panic, when Envoy routes to every host, ejected or not). The cluster is charged panic time while the lab's ejections leave too few healthy hosts (docs/model.md),
 * and nothing is "during fault".
 *
 * <p>Records are pushed with {@link #offer} (several replays can then be fed from one merged stream) or pulled
 * from an iterator with {@link #run}.
 */
public final class TraceReplay {
    private final Scenario scenario;
    private final LabCluster cluster;
    private final long[] requests;
    private final long[] failed;
    private final long[] requestsWhileEjected;
    private final long[] failedWhileEjected;
    private final boolean movedWhileEjected;
    private final RunWatcher watcher;
    private long replayed;
    private long previous;
    private boolean pending;
    private long pendingNanos;
    private boolean pendingFailed;
    private boolean pendingPanic;

    /** A replay of an outcome trace: every record is reported to its host. */
    public TraceReplay(Scenario scenario, RunOptions options) {
        this(scenario, options, false);
    }

    /**
     * @param movedWhileEjected the records are observed traffic: one for a host the lab has ejected is counted
     *                          as moved elsewhere and not reported to that host
     */
    public TraceReplay(Scenario scenario, RunOptions options, boolean movedWhileEjected) {
        this.movedWhileEjected = movedWhileEjected;
        this.scenario = scenario.toBuilder()
                .traffic(new TrafficSpec(scenario.traffic().rps()))
                .faults(List.of())
                .load(LoadSpec.NONE)
                .routing(RoutingSpec.NONE)
                .build();
        this.cluster = new LabCluster(this.scenario, options);
        this.watcher = options.watcher();
        int hosts = scenario.cluster().hosts().size();
        requests = new long[hosts];
        failed = new long[hosts];
        requestsWhileEjected = new long[hosts];
        failedWhileEjected = new long[hosts];
    }

    /** Replays every record of {@code records} and returns the run. */
    public static RunResult run(Scenario scenario, Iterator<TraceRecord> records, RunOptions options) {
        TraceReplay replay = new TraceReplay(scenario, options);
        while (records.hasNext()) {
            replay.offer(records.next());
        }
        return replay.finish().run();
    }

    /**
     * Reports one record: the ticks due at or before its time run first.
     *
     * @throws TraceOrderException if it is earlier than the record before, or not before the duration
     */
    public void offer(TraceRecord record) {
        offer(record.timeNanos(), record.host(), record.code(), record.result(), record.line(), record.connected());
    }

    /**
     * Reports the record with these fields (see {@link TraceRecord}) without making one: a replay of millions of
     * lines allocates nothing per outcome.
     *
     * @throws TraceOrderException if it is earlier than the record before, or not before the duration
     */
    public void offer(long t, int host, int code, RequestResult result, long line, boolean connected) {
        if (code < 0 && result == null) {
            throw new IllegalArgumentException("a trace record needs a code or a result");
        }
        if (t < previous) {
            throw new TraceOrderException(
                    line,
                    "time " + Durations.format(t)
                            + " is earlier than the line before (" + Durations.format(previous)
                            + "); records must be in time order");
        }
        if (t >= scenario.durationNanos()) {
            throw new TraceOrderException(
                    line,
                    "time " + Durations.format(t)
                            + " is not before the scenario's duration (" + Durations.format(scenario.durationNanos())
                            + "); raise duration or trim the trace");
        }
        chargePending(t);
        previous = t;
        if ((replayed++ & (RunWatcher.EVERY_REQUESTS - 1)) == 0) {
            watcher.progress(replayed - 1, 0);
        }
        cluster.runDue(t);
        cluster.first().carried();
        boolean panic = cluster.first().balancer.inPanic();
        boolean isFailure = TraceRecord.isFailure(code, result);
        requests[host]++;
        if (isFailure) {
            failed[host]++;
        }
        // In panic Envoy routes to every host, ejected or not: only outside panic would ejection have moved it.
        boolean ejected = cluster.first().monitors[host].isEjected();
        boolean moved = ejected && movedWhileEjected && !panic;
        if (moved || ejected && !movedWhileEjected) {
            requestsWhileEjected[host]++;
            if (isFailure) {
                failedWhileEjected[host]++;
            }
        }
        if (!moved) {
            report(cluster.first().monitors[host], code, result, connected, t);
        }
        pending = true;
        pendingNanos = t;
        pendingFailed = isFailure;
        pendingPanic = panic;
    }

    /**
     * Runs the ticks due at or before {@code t} without a record: a live replay's clock moving on (the end of a
     * bounded stream, where {@link #finish} would run them to the duration). A record at {@code t} after this
     * gives what it gives without it.
     *
     * @throws TraceOrderException if {@code t} is earlier than the last record
     */
    public void advanceTo(long t) {
        if (t < previous) {
            throw new TraceOrderException(
                    -1,
                    "time " + Durations.format(t) + " is earlier than the last record (" + Durations.format(previous)
                            + ")");
        }
        cluster.runDue(Math.min(t, scenario.durationNanos()));
    }

    /** The decisions made so far, in time order (a view): a live replay hands on the new ones after each record. */
    public List<OutlierEvent> decisions() {
        return cluster.recorder.eventsSoFar();
    }

    private static void report(HostMonitor monitor, int code, RequestResult result, boolean connected, long t) {
        if (connected) {
            monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, t);
        }
        if (result != null) {
            monitor.putResult(result, code, t);
        } else {
            monitor.putHttpResponseCode(code, t);
        }
    }

    /** Runs the ticks up to the duration and returns the run with each host's traffic. */
    public ReplayResult finish() {
        chargePending(scenario.durationNanos());
        RunResult run = cluster.finish();
        List<String> names = scenario.cluster().hosts();
        long[] ejected = ejectedNanos(run.events(), names, scenario.durationNanos());
        List<HostTraffic> hosts = new ArrayList<>(names.size());
        for (int h = 0; h < names.size(); h++) {
            hosts.add(new HostTraffic(
                    names.get(h), requests[h], failed[h], ejected[h], requestsWhileEjected[h], failedWhileEjected[h]));
        }
        return new ReplayResult(run, hosts);
    }

    /** The record before is charged up to {@code nextNanos} (the time to the next request bounds its panic time). */
    private void chargePending(long nextNanos) {
        if (pending) {
            cluster.recorder.request(pendingNanos, nextNanos, pendingFailed, false, pendingPanic, false);
            pending = false;
        }
    }

    /** Per host, the time between each ejection and its return (or the end). */
    static long[] ejectedNanos(List<OutlierEvent> events, List<String> names, long endNanos) {
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < names.size(); h++) {
            index.put(names.get(h), h);
        }
        long[] total = new long[names.size()];
        long[] since = new long[names.size()];
        Arrays.fill(since, -1);
        for (OutlierEvent e : events) {
            int h = index.get(e.host());
            if (e.action() == EventAction.EJECT && since[h] < 0) {
                since[h] = e.timeNanos();
            } else if (e.action() == EventAction.UNEJECT && since[h] >= 0) {
                total[h] += e.timeNanos() - since[h];
                since[h] = -1;
            }
        }
        for (int h = 0; h < total.length; h++) {
            if (since[h] >= 0) {
                total[h] += endNanos - since[h];
            }
        }
        return total;
    }
}
