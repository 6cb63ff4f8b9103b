package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.Outcome;
import dev.outlierlab.engine.gateway.CandidateRouter;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.RotationGuard;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.traffic.EvenSendTimes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a gateway scenario (docs/gateway.md): request {@code i} at {@code floor(i * 1e9 / rps)}
 * is handled by process {@code i mod processes}, whose router gives the candidate list and whose stage
 * filters it (returns first, then the mode and the guard); the request goes to the first candidate and, while
 * attempts fail and fallbacks remain, to the next; every attempt's outcome is recorded in that process
 * (except in off mode). Faults are the lab model's (even, random or burst patterns from the scenario's seed), per endpoint, counted per attempt. Zero
 * latency: all attempts of a request happen at its send time. Deterministic, and nothing is allocated per
 * attempt.
 */
public final class GatewaySimulation {
    private GatewaySimulation() {}

    public static GatewayRunResult run(GatewayScenario scenario) {
        return run(scenario, GatewayObserver.NONE);
    }

    public static GatewayRunResult run(GatewayScenario scenario, GatewayObserver observer) {
        GatewayConfig config = scenario.gateway();
        List<String> endpoints = scenario.endpoints();
        int n = endpoints.size();
        int processes = config.processes();
        GatewayRecorder recorder = new GatewayRecorder(processes, n, scenario.durationNanos(), observer);
        GatewayDetector[] detectors = new GatewayDetector[processes];
        CandidateStage[] stages = new CandidateStage[processes];
        CandidateRouter[] routers = new CandidateRouter[processes];
        for (int p = 0; p < processes; p++) {
            detectors[p] = new GatewayDetector(config, endpoints, p, recorder);
            stages[p] = new CandidateStage(config.mode(), detectors[p], detectors[p], RotationGuard.NEVER_EMPTY);
            routers[p] = scenario.routing().newRouter(n);
        }
        Map<String, Integer> index = new HashMap<>();
        for (int e = 0; e < n; e++) {
            index.put(endpoints.get(e), e);
        }
        FaultInjector faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        int[] outcomeOfFault = new int[scenario.faults().size()];
        for (int f = 0; f < outcomeOfFault.length; f++) {
            outcomeOfFault[f] = outcome(scenario.faults().get(f));
        }
        boolean records = config.mode().recordsOutcomes();
        int maxAttempts = scenario.maxAttemptsPerRequest();
        TrafficSpec traffic = scenario.traffic();
        long count = scenario.requestCount();
        boolean fixedLists = routers[0].listsFixed(); // every process routes by the same strategy
        EvenSendTimes times = new EvenSendTimes(traffic.rps());
        int p = -1;
        for (long i = 0; i < count; i++) {
            long t = times.next();
            p = p + 1 < processes ? p + 1 : 0;
            CandidateStage stage = stages[p];
            CandidateRouter router = routers[p];
            int candidates = stage.apply(router.list(), router.next(), n, fixedLists, t);
            recorder.stage(stage.actionOrdinal());
            int[] list = stage.list();
            int start = stage.listStart();
            observer.onStage(i, p, t, stage, list, start, candidates);
            boolean duringFault = faults.moveTo(t);
            boolean failed = false;
            int tries = Math.min(candidates, maxAttempts);
            for (int a = 0; a < tries; a++) {
                int endpoint = list[start + a];
                int fault = faults.onRequestInSegment(endpoint, t);
                int outcome = fault == FaultInjector.PASS ? 200 : outcomeOfFault[fault];
                failed = Outcome.isFailure(outcome);
                recorder.attempt(endpoint, failed);
                observer.onAttempt(i, p, t, a, endpoint, outcome, detectors[p]);
                if (records) {
                    detectors[p].record(endpoint, outcome, t);
                }
                if (!failed) {
                    break;
                }
            }
            recorder.request(failed, duringFault);
        }
        long belowMinStdev = 0;
        for (GatewayDetector d : detectors) {
            belowMinStdev += d.judgementsBelowMinStdev();
        }
        return recorder.finish(scenario, belowMinStdev);
    }

    /** A fault's failure as an outcome: its local result if it has one (an external failure is a 500), else its status. */
    public static int outcome(FaultSpec fault) {
        // a degraded fault's responses are 200s (with x-envoy-degraded, which only Envoy 1.38 reads)
        return fault.degraded() ? 200 : outcome(fault.status(), fault.result());
    }

    /** A failure as an outcome: the local result if there is one (an external failure is a 500), else the status. */
    public static int outcome(int status, FaultResult result) {
        if (result == null) {
            return status;
        }
        return switch (result) {
            case TIMEOUT -> Outcome.TIMEOUT;
            case CONNECT_FAILED -> Outcome.CONNECT_FAILED;
            case RESET -> Outcome.RESET;
            case EXT_FAILED -> 500;
        };
    }
}
