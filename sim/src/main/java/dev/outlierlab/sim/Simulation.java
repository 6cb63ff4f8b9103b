package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.overload.CapacityLimiter;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.SignalRecorder.Outcome;
import dev.outlierlab.sim.traffic.ArrivalProcess;
import dev.outlierlab.sim.traffic.WeightedRoundRobin;

/**
 * Runs a scenario with synthetic traffic, by the lab model's rules (spec sections 3 to 7): request {@code i}
 * at {@code floor(i * 1e9 / rps)}, due ticks first, round-robin over the eligible hosts, faults failing
 * requests by their pattern, zero latency. Deterministic: the same scenario gives the same result, bit for bit.
 * The opt-in {@link LoadSpec} changes arrivals ({@link ArrivalProcess}), picks ({@link WeightedRoundRobin}) and
 * lets a host refuse requests beyond its capacity ({@link CapacityLimiter}); a fault decides first, and only
 * requests the fault lets through count toward the host's capacity.
 */
public final class Simulation {
    private Simulation() {
    }

    public static RunResult run(Scenario scenario) {
        return run(scenario, RunOptions.DEFAULT);
    }

    public static RunResult run(Scenario scenario, RunOptions options) {
        return run(scenario, options, RequestSink.NONE);
    }

    /** Runs the scenario and hands every request, as sent, to {@code sink}. */
    public static RunResult run(Scenario scenario, RunOptions options, RequestSink sink) {
        LabCluster cluster = new LabCluster(scenario, options);
        LoadSpec load = scenario.load();
        FaultInjector faults = cluster.faults;
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        WeightedRoundRobin weighted = load.weights().isEmpty() ? null
                : new WeightedRoundRobin(scenario.cluster().hosts(), load.weights());
        CapacityLimiter capacity = load.hasCapacity()
                ? new CapacityLimiter(scenario.cluster().hosts(), load.capacityRps()) : null;
        long duration = scenario.durationNanos();
        long nextDue = cluster.nextDueNanos();
        long t = arrivals.next();
        RunWatcher watcher = options.watcher();
        long expected = scenario.requestCount();
        for (long i = 0; t >= 0; i++) {
            if ((i & (RunWatcher.EVERY_REQUESTS - 1)) == 0) {
                watcher.progress(i, Math.max(i, expected));
            }
            long following = arrivals.next();
            long next = following >= 0 ? following : duration;
            if (t >= nextDue) {
                cluster.runDue(t);
                nextDue = cluster.nextDueNanos();
            }
            boolean panic = cluster.balancer.inPanic();
            int host = weighted == null ? cluster.balancer.pick(i) : weighted.pick(cluster.balancer, i);
            Outcome outcome;
            if (host < 0) {
                outcome = Outcome.FAILED_NO_HOST;
                sink.onRequest(t, -1, 503, null);
            } else {
                int fault = faults.onRequest(host, t);
                if (fault != FaultInjector.PASS) {
                    outcome = Outcome.FAILED_FAULT;
                    FaultSpec spec = faults.fault(fault);
                    cluster.report(host, spec.status(), spec.result(), t);
                    sink.onRequest(t, host, spec.status(), spec.result());
                } else if (capacity != null && !capacity.admit(host, t)) {
                    outcome = Outcome.FAILED_CAPACITY;
                    cluster.report(host, load.overloadStatus(), load.overloadResult(), t);
                    sink.onRequest(t, host, load.overloadStatus(), load.overloadResult());
                } else {
                    outcome = Outcome.OK;
                    cluster.report(host, 200, null, t);
                    sink.onRequest(t, host, 200, null);
                }
            }
            boolean failed = outcome != Outcome.OK;
            boolean duringFault = faults.anyActive(t);
            if (host >= 0) {
                cluster.recorder.hostRequest(host, failed, duringFault);
            }
            cluster.recorder.request(t, next, failed, duringFault, panic, host < 0);
            cluster.recorder.signals().request(t, outcome);
            t = following;
        }
        return cluster.finish();
    }
}
