package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.OutlierStats;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One simulated cluster: its callers ({@link Caller}, each with its own detector, load balancer and health
 * checker; one unless {@code traffic.clients} says more), the hosts' faults and the recorder, with the scheduler
 * that runs interval ticks (at {@code k * interval}, up to and including the duration) and health-check rounds
 * before anything that happens at or after their time. At the same instant ticks run before health checks, and
 * callers run in order. Shared by synthetic traffic and trace replay.
 */
final class LabCluster {
    final Scenario scenario;
    final Caller[] callers;
    final FaultInjector faults;
    final RunRecorder recorder;
    private final long intervalNanos;
    private final long durationNanos;
    private long nextTickNanos;
    private long nextCheckNanos;
    private final RunWatcher watcher;
    private long rounds;

    LabCluster(Scenario scenario, RunOptions options) {
        this(scenario, options, 0);
    }

    /**
     * A cluster whose callers are numbered from {@code firstCaller}: with {@code firstCaller = c} and one client,
     * caller {@code c} of a larger run alone, for running it on its share.
     */
    LabCluster(Scenario scenario, RunOptions options, int firstCaller) {
        this.scenario = scenario;
        List<String> hosts = scenario.cluster().hosts();
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < hosts.size(); h++) {
            index.put(hosts.get(h), h);
        }
        int clients = scenario.traffic().clients();
        this.durationNanos = scenario.durationNanos();
        this.recorder = new RunRecorder(index, durationNanos, options, clients);
        this.callers = new Caller[clients];
        for (int c = 0; c < clients; c++) {
            callers[c] = new Caller(scenario, firstCaller + c, c, recorder);
        }
        recorder.attach(callers);
        this.faults = new FaultInjector(scenario.faults(), index, scenario.seed(), options.failureMemo());
        this.intervalNanos = scenario.outlierDetection().intervalNanos();
        this.nextTickNanos = intervalNanos;
        this.nextCheckNanos = nextCheck();
        this.watcher = options.watcher();
    }

    /** The earliest probe or probe timeout of any caller. */
    private long nextCheck() {
        long next = Long.MAX_VALUE;
        for (Caller c : callers) {
            next = Math.min(next, c.nextCheckNanos());
        }
        return next;
    }

    /** The first caller: the only one of a trace replay and of a single-caller run. */
    Caller first() {
        return callers[0];
    }

    /** The earliest scheduled tick or health check; callers skip {@link #runDue} while time is before it. */
    long nextDueNanos() {
        long next = nextTickNanos <= durationNanos ? nextTickNanos : Long.MAX_VALUE;
        if (nextCheckNanos <= durationNanos) {
            next = Math.min(next, nextCheckNanos);
        }
        return next;
    }

    /** Runs every tick and health-check round scheduled at or before {@code nanos}, for every caller. */
    void runDue(long nanos) {
        while (true) {
            long tick = nextTickNanos <= durationNanos ? nextTickNanos : Long.MAX_VALUE;
            long check = nextCheckNanos <= durationNanos ? nextCheckNanos : Long.MAX_VALUE;
            if ((++rounds & (RunWatcher.EVERY_ROUNDS - 1)) == 0) {
                watcher.progress(-1, -1);
            }
            if (tick <= check && tick <= nanos) {
                for (Caller c : callers) {
                    c.detector.tick(tick);
                }
                nextTickNanos += intervalNanos;
            } else if (check < tick && check <= nanos) {
                // each caller's probes follow its own responses and its own traffic (no_traffic_interval)
                for (Caller c : callers) {
                    if (c.nextCheckNanos() == check) {
                        c.runChecks(faults);
                    }
                }
                nextCheckNanos = nextCheck();
                recorder.signals().membershipChanged(check);
            } else {
                return;
            }
        }
    }

    /** Runs the remaining ticks up to the duration and builds the result. */
    RunResult finish() {
        runDue(durationNanos);
        List<OutlierStats> stats = new ArrayList<>(callers.length);
        for (Caller c : callers) {
            stats.add(c.detector.stats());
        }
        return recorder.finish(scenario, stats);
    }
}
