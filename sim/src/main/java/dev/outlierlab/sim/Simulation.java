package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;

/**
 * Runs a scenario with synthetic traffic, by the lab model's rules (spec sections 3 to 7): request {@code i}
 * at {@code floor(i * 1e9 / rps)}, due ticks first, round-robin over the eligible hosts, faults failing
 * requests by their pattern, zero latency. Deterministic: the same scenario gives the same result, bit for bit.
 */
public final class Simulation {
    private Simulation() {
    }

    public static RunResult run(Scenario scenario) {
        return run(scenario, RunOptions.DEFAULT);
    }

    public static RunResult run(Scenario scenario, RunOptions options) {
        LabCluster cluster = new LabCluster(scenario, options);
        TrafficSpec traffic = scenario.traffic();
        FaultInjector faults = cluster.faults;
        long count = scenario.requestCount();
        long duration = scenario.durationNanos();
        long nextDue = cluster.nextDueNanos();
        long t = 0;
        RunWatcher watcher = options.watcher();
        for (long i = 0; i < count; i++) {
            if ((i & (RunWatcher.EVERY_REQUESTS - 1)) == 0) {
                watcher.progress(i, count);
            }
            long next = i + 1 < count ? traffic.sendTimeNanos(i + 1) : duration;
            if (t >= nextDue) {
                cluster.runDue(t);
                nextDue = cluster.nextDueNanos();
            }
            boolean panic = cluster.balancer.inPanic();
            int host = cluster.balancer.pick(i);
            boolean failed;
            if (host < 0) {
                failed = true;
            } else {
                int fault = faults.onRequest(host, t);
                if (fault == FaultInjector.PASS) {
                    failed = false;
                    cluster.report(host, 200, null, t);
                } else {
                    failed = true;
                    FaultSpec spec = faults.fault(fault);
                    cluster.report(host, spec.status(), spec.result(), t);
                }
            }
            boolean duringFault = faults.anyActive(t);
            if (host >= 0) {
                cluster.recorder.hostRequest(host, failed, duringFault);
            }
            cluster.recorder.request(t, next, failed, duringFault, panic, host < 0);
            t = next;
        }
        return cluster.finish();
    }
}
