package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.overload.CapacityLimiter;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.SignalRecorder.RequestFate;
import dev.outlierlab.sim.traffic.ArrivalProcess;
import dev.outlierlab.sim.traffic.WeightedRoundRobin;

/**
 * Runs a scenario with synthetic traffic, by the lab model's rules (docs/model.md): request {@code i}
 * at {@code floor(i * 1e9 / rps)}, due ticks first, round-robin over the eligible hosts, faults failing
 * requests by their pattern, zero latency. Deterministic: the same scenario gives the same result, bit for bit.
 * The opt-in {@link LoadSpec} changes arrivals ({@link ArrivalProcess}), picks ({@link WeightedRoundRobin}) and
 * lets a host refuse requests beyond its capacity ({@link CapacityLimiter}); a fault decides first, and only
 * requests the fault lets through count toward the host's capacity. With {@code traffic.clients} callers,
 * request {@code i} is sent by caller {@code i mod clients} ({@link Caller}: its own detector, rotation and
 * panic state), as its request number {@code i div clients}; the hosts' faults and capacity see every caller's
 * requests in send order. A request costs the same whatever the number of callers; ticks cost one evaluation
 * of every host per caller. Where {@link FastPath} applies, a run takes its event-driven path instead, with the same
 * result bit for bit; this class's loop is the per-request path, the reference it is tested against. A scenario
 * whose routing goes beyond one round robin (priorities, zones, another {@code lb_policy}, retries) runs on
 * {@link RoutedRequests}, the per-request path with Envoy's priority load balancer and retries.
 */
public final class Simulation {
    private Simulation() {}

    public static RunResult run(Scenario scenario) {
        return run(scenario, RunOptions.DEFAULT);
    }

    public static RunResult run(Scenario scenario, RunOptions options) {
        return run(scenario, options, RequestSink.NONE);
    }

    /**
     * Runs the scenario and hands every request, as sent, to {@code sink}; without a sink, on the event-driven
     * {@link FastPath} when it applies and is estimated to be the cheaper (the same result, with work that follows
     * events rather than requests).
     */
    public static RunResult run(Scenario scenario, RunOptions options, RequestSink sink) {
        if (sink == RequestSink.NONE && FastPath.appliesTo(scenario, options) && eventDrivenIsCheaper(scenario)) {
            RunResult fast = FastPath.runOrNull(scenario, options);
            if (fast != null) {
                return fast;
            }
        }
        if (scenario.routing().needsRouter()) {
            return RoutedRequests.run(scenario, options, sink);
        }
        return perRequest(scenario, options, sink);
    }

    /**
     * Whether the event-driven path's estimated work is at most the per-request path's ({@link WorkEstimate}): where
     * most requests fail (a deep outage on every host, with many callers) walking them is cheaper than planning each
     * failure. Both give the same result, so this decides only the time.
     */
    static boolean eventDrivenIsCheaper(Scenario scenario) {
        return WorkEstimate.ofEventDriven(scenario).units()
                <= WorkEstimate.of(scenario).units();
    }

    /** The per-request path: every request, one after another. */
    private static RunResult perRequest(Scenario scenario, RunOptions options, RequestSink sink) {
        LabCluster cluster = new LabCluster(scenario, options);
        LoadSpec load = scenario.load();
        FaultInjector faults = cluster.faults;
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        Caller[] callers = cluster.callers;
        int clients = callers.length;
        int c = 0;
        long j = 0;
        CapacityLimiter capacity =
                load.hasCapacity() ? new CapacityLimiter(scenario.cluster().hosts(), load.capacityRps()) : null;
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
            Caller caller = callers[c];
            boolean panic = caller.balancer.inPanic();
            int host = caller.pick(j);
            RequestFate outcome;
            if (host < 0) {
                outcome = RequestFate.FAILED_NO_HOST;
                sink.onRequest(c, t, -1, 503, null);
            } else {
                int fault = faults.onRequest(host, t);
                if (fault != FaultInjector.PASS && faults.fault(fault).degraded()) {
                    // answered 200 with x-envoy-degraded: a success, which may mark the host degraded
                    outcome = RequestFate.OK;
                    caller.reportDegraded(host, t);
                    sink.onRequest(c, t, host, 200, null);
                } else if (fault != FaultInjector.PASS) {
                    outcome = RequestFate.FAILED_FAULT;
                    FaultSpec spec = faults.fault(fault);
                    caller.report(host, spec.status(), spec.result(), t);
                    sink.onRequest(c, t, host, spec.status(), spec.result());
                } else if (capacity != null && !capacity.admit(host, t)) {
                    outcome = RequestFate.FAILED_CAPACITY;
                    FaultResult overload = FaultResult.of(load.overloadResult());
                    caller.report(host, load.overloadStatus(), overload, t);
                    sink.onRequest(c, t, host, load.overloadStatus(), overload);
                } else {
                    outcome = RequestFate.OK;
                    caller.report(host, 200, null, t);
                    sink.onRequest(c, t, host, 200, null);
                }
            }
            boolean failed = outcome != RequestFate.OK;
            boolean duringFault = faults.anyActive(t);
            if (host >= 0) {
                cluster.recorder.hostRequest(host, failed, duringFault);
            }
            cluster.recorder.request(c, t, next, failed, duringFault, panic, host < 0);
            cluster.recorder.signals().request(t, outcome);
            t = following;
            if (++c == clients) {
                c = 0;
                j++;
            }
        }
        return cluster.finish();
    }
}
