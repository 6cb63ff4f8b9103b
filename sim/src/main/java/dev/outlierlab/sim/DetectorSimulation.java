package dev.outlierlab.sim;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.overload.CapacityLimiter;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.SignalRecorder.RequestFate;
import dev.outlierlab.sim.traffic.ArrivalProcess;
import dev.outlierlab.sim.traffic.LoadBalancer;
import dev.outlierlab.sim.traffic.WeightedRoundRobin;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a scenario's traffic against a detector known only by the {@link Detector} contract (docs/model.md):
 * before request {@code i} the detector's due work at or before its send time runs, the request goes round-robin
 * to the hosts not ejected ({@code eligible[i mod n]}), a fault fails it by its pattern, and the outcome is
 * recorded at once (zero latency). There is no panic: with every host ejected a request fails with no host, as a
 * gRPC channel fails every call with UNAVAILABLE. Arrivals, weights and capacity follow the scenario's
 * {@link LoadSpec} as in {@link Simulation}. Deterministic, byte for byte.
 */
public final class DetectorSimulation {
    private DetectorSimulation() {}

    public static RunResult run(Scenario scenario, RunOptions options, ContractDetector profile) {
        List<String> hosts = scenario.cluster().hosts();
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < hosts.size(); h++) {
            index.put(hosts.get(h), h);
        }
        long duration = scenario.durationNanos();
        if (scenario.traffic().clients() > 1) {
            throw new InvalidConfigException(
                    "traffic.clients",
                    Long.toString(scenario.traffic().clients()),
                    "1 under a profile other than envoy (one channel)");
        }
        RunRecorder recorder = new RunRecorder(index, duration, options, 1);
        LoadBalancer balancer = new LoadBalancer(hosts.size(), 0);
        recorder.attach(balancer);
        Detector detector = profile.create(scenario, recorder);
        FaultInjector faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        int[] outcomeOfFault = new int[scenario.faults().size()];
        for (int f = 0; f < outcomeOfFault.length; f++) {
            outcomeOfFault[f] = GatewaySimulation.outcome(scenario.faults().get(f));
        }
        LoadSpec load = scenario.load();
        ArrivalProcess arrivals = new ArrivalProcess(scenario);
        WeightedRoundRobin weighted = load.weights().isEmpty() ? null : new WeightedRoundRobin(hosts, load.weights());
        CapacityLimiter capacity = load.hasCapacity() ? new CapacityLimiter(hosts, load.capacityRps()) : null;
        int overloadOutcome = load.hasCapacity() ? overload(load) : 0;
        RunWatcher watcher = options.watcher();
        long expected = scenario.requestCount();
        long t = arrivals.next();
        for (long i = 0; t >= 0; i++) {
            if ((i & (RunWatcher.EVERY_REQUESTS - 1)) == 0) {
                watcher.progress(i, Math.max(i, expected));
            }
            long following = arrivals.next();
            long next = following >= 0 ? following : duration;
            if (t >= detector.nextDueNanos()) {
                detector.runDue(t);
            }
            int host = weighted == null ? balancer.pick(i) : weighted.pick(balancer, i);
            RequestFate outcome;
            if (host < 0) {
                outcome = RequestFate.FAILED_NO_HOST;
            } else {
                int fault = faults.onRequest(host, t);
                if (fault != FaultInjector.PASS) {
                    outcome = RequestFate.FAILED_FAULT;
                    detector.record(host, outcomeOfFault[fault], t);
                } else if (capacity != null && !capacity.admit(host, t)) {
                    outcome = RequestFate.FAILED_CAPACITY;
                    detector.record(host, overloadOutcome, t);
                } else {
                    outcome = RequestFate.OK;
                    detector.record(host, 200, t);
                }
            }
            boolean failed = outcome != RequestFate.OK;
            boolean duringFault = faults.anyActive(t);
            if (host >= 0) {
                recorder.hostRequest(host, failed, duringFault);
            }
            recorder.request(t, next, failed, duringFault, false, host < 0);
            recorder.signals().request(t, outcome);
            t = following;
        }
        detector.runDue(duration);
        return recorder.finish(scenario, profile.totals(detector));
    }

    private static int overload(LoadSpec load) {
        return GatewaySimulation.outcome(load.overloadStatus(), FaultResult.of(load.overloadResult()));
    }
}
