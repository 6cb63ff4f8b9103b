package dev.outlierlab.sim;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.trace.TraceOrderException;
import dev.outlierlab.sim.trace.TraceRecord;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.Iterator;
import java.util.List;

/**
 * Replays an explicit outcome trace instead of synthetic traffic: the scenario's cluster, outlier settings,
 * health checks and duration apply; its traffic and faults do not. Before each record, the ticks due at or
 * before its time run (spec section 3); after the last, ticks run on to the duration. Records are reported
 * exactly as given: there is no routing, so panic and "no healthy upstream" do not arise, and nothing is
 * "during fault".
 */
public final class TraceReplay {
    private TraceReplay() {
    }

    public static RunResult run(Scenario scenario, Iterator<TraceRecord> records, RunOptions options) {
        Scenario noTraffic = new Scenario(scenario.name(), scenario.durationNanos(), scenario.seed(),
                scenario.cluster(), scenario.traffic(), List.of(), scenario.outlierDetection(),
                scenario.healthChecks(), scenario.envoyVersion());
        LabCluster cluster = new LabCluster(noTraffic, options);
        long previous = 0;
        long replayed = 0;
        TraceRecord pending = records.hasNext() ? records.next() : null;
        while (pending != null) {
            TraceRecord record = pending;
            pending = records.hasNext() ? records.next() : null;
            if (record.timeNanos() < previous) {
                throw new TraceOrderException(record.line(), "time "
                        + Durations.format(record.timeNanos()) + " is earlier than the line before ("
                        + Durations.format(previous) + "); records must be in time order");
            }
            if (record.timeNanos() >= scenario.durationNanos()) {
                throw new TraceOrderException(record.line(), "time "
                        + Durations.format(record.timeNanos()) + " is not before the scenario's duration ("
                        + Durations.format(scenario.durationNanos()) + "); raise duration or trim the trace");
            }
            previous = record.timeNanos();
            if ((replayed++ & (RunWatcher.EVERY_REQUESTS - 1)) == 0) {
                options.watcher().progress(replayed - 1, 0);
            }
            long next = pending == null ? scenario.durationNanos() : Math.max(pending.timeNanos(), record.timeNanos());
            cluster.runDue(record.timeNanos());
            if (record.result() != null) {
                cluster.monitors[record.host()].putResult(record.result(), record.code(), record.timeNanos());
            } else {
                cluster.monitors[record.host()].putHttpResponseCode(record.code(), record.timeNanos());
            }
            cluster.recorder.request(record.timeNanos(), next, record.isFailure(), false, false, false);
        }
        return cluster.finish();
    }
}
