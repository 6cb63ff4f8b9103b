package dev.outlierlab.sim;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.DegradationEvent;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.health.ActiveHealthChecker;
import dev.outlierlab.sim.routing.PriorityRouter;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.traffic.LoadBalancer;
import dev.outlierlab.sim.traffic.WeightedRoundRobin;
import java.util.List;

/**
 * One caller of the cluster (an Envoy sidecar, a gRPC channel, a gateway process): its own outlier detector and
 * host monitors, its own load balancer with its own rotation and panic state, and its own active health checker,
 * as each Envoy runs {@code DetectorImpl} and {@code LoadBalancerBase} for itself. Callers share only the hosts
 * (their faults and capacity). Caller {@code c}'s {@code j}-th request goes to its eligible host
 * {@code (c + j) mod eligible}, so that the callers start their rotations at different hosts, as Envoy's
 * round-robin balancers start at a random index on each worker.
 */
final class Caller {
    final int index;
    final HostMonitor[] monitors;
    final OutlierDetector detector;
    final LoadBalancer balancer;
    /** Envoy's priority load balancer over this caller's hosts, when the scenario's routing needs it; else null. */
    final PriorityRouter router;

    private final WeightedRoundRobin weighted;
    private final ActiveHealthChecker healthChecker;
    private final boolean split;

    /**
     * @param index the caller's number: where its rotation starts, and its draws ({@link #seedOf})
     * @param slot  its number in {@code recorder} (its index, unless it runs alone on its share)
     */
    Caller(Scenario scenario, int index, int slot, RunRecorder recorder) {
        this.index = index;
        long seed = seedOf(scenario.seed(), index);
        List<String> hosts = scenario.cluster().hosts();
        this.balancer = new LoadBalancer(hosts.size(), scenario.cluster().panicThresholdPercent());
        this.detector = new OutlierDetector(
                scenario.outlierDetection(),
                new SeededRandom(seed),
                new Listener(slot, recorder),
                scenario.envoyVersion());
        this.monitors = new HostMonitor[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            monitors[h] = detector.addHost(hosts.get(h));
        }
        this.weighted = scenario.load().weights().isEmpty()
                ? null
                : new WeightedRoundRobin(hosts, scenario.load().weights());
        this.healthChecker =
                scenario.healthChecks() == null ? null : new ActiveHealthChecker(scenario.healthChecks(), hosts.size());
        if (healthChecker != null) {
            healthChecker.start(balancer);
        }
        this.split = scenario.outlierDetection().splitExternalLocalOriginErrors();
        RoutingSpec routing = scenario.routing();
        this.router = routing.needsRouter()
                ? PriorityRouter.forCaller(
                        routing, scenario.cluster().panicThresholdPercent(), hosts, index, seed, balancer)
                : null;
    }

    /** The seed of caller {@code c}'s draws: the scenario's seed for caller 0, a derived one for the others. */
    static long seedOf(long scenarioSeed, int c) {
        if (c == 0) {
            return scenarioSeed;
        }
        long z = scenarioSeed + 0x9E3779B97F4A7C15L * (c + 1L) ^ 0xC11E47L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The host for this caller's request number {@code j} (from 0), or -1 when no host is eligible. */
    int pick(long j) {
        long slot = j + index;
        return weighted == null ? balancer.pick(slot) : weighted.pick(balancer, slot);
    }

    long nextCheckNanos() {
        return healthChecker == null ? Long.MAX_VALUE : healthChecker.nextCheckNanos();
    }

    void runChecks(FaultInjector faults) {
        healthChecker.runChecks(monitors, detector, faults, balancer);
    }

    /**
     * Reports a request's outcome to its host as Envoy's HTTP router does (docs/model.md): a connect success when
     * a stream was obtained (every request but a connect failure), then the HTTP code, or the local result with
     * its code (a timeout as {@code LOCAL_ORIGIN_TIMEOUT} with 504, a reset as a connect failure). Without split
     * origins a connect success is not reported at all (Envoy maps it to no code), so it is skipped.
     */
    void report(int host, int httpCode, FaultResult localFailure, long nanos) {
        carried();
        HostMonitor monitor = monitors[host];
        if (split && (localFailure == null || localFailure.streamObtained())) {
            monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, nanos);
        }
        if (localFailure == null) {
            monitor.putHttpResponseCode(httpCode, nanos);
        } else {
            monitor.putResult(localFailure.reported(), localFailure.code(), nanos);
        }
    }

    /**
     * Whether a failure is one report of an HTTP code to its host ({@link #codeOutsideSplit}), so that a run of them
     * can be counted at once ({@link #failQuietly}): outside split mode.
     */
    boolean foldsFailures() {
        return !split;
    }

    /**
     * The HTTP code {@link #report} gives the host's monitor for a failure with {@code httpCode} and
     * {@code localFailure} outside split mode, or -1 when it reports nothing.
     */
    static int codeOutsideSplit(int httpCode, FaultResult localFailure) {
        return localFailure == null
                ? httpCode
                : HostMonitor.httpCodeOutsideSplit(localFailure.reported(), localFailure.code());
    }

    /**
     * How many failures reported with {@code code} ({@link #codeOutsideSplit}) in a row from now, or after a success
     * ({@code afterSuccess}), reach no detector: {@link HostMonitor#quietHttpResponseCodes}.
     */
    long quietFailures(int host, int code, boolean afterSuccess) {
        return code < 0 ? Long.MAX_VALUE : monitors[host].quietHttpResponseCodes(code, afterSuccess);
    }

    /**
     * A host's requests between two events at once: {@code failures} reported with {@code code} and
     * {@code successes}, in an order whose last {@code trailing} are failures in a row after a success (0: the last
     * is a success), none of the failures reaching the detector ({@link #quietFailures}): exactly as many
     * {@link #report} calls and successes outside split mode, which need no time.
     */
    void foldedRequests(int host, int code, long failures, long successes, long trailing) {
        if (failures > 0) {
            carried();
        }
        if (code >= 0) {
            monitors[host].putHttpResponseCodes(code, failures, successes, trailing);
        } else {
            monitors[host].putSuccesses(successes);
        }
    }

    /**
     * Reports a 200 response carrying {@code x-envoy-degraded}: a connect success in split mode, then the code with
     * the header, which marks the host degraded under {@code detect_degraded_hosts}.
     */
    void reportDegraded(int host, long nanos) {
        carried();
        HostMonitor monitor = monitors[host];
        if (split) {
            monitor.putResult(RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, nanos);
        }
        monitor.putHttpResponseCode(200, true, nanos);
    }

    /** This caller sent a request to a host: from now on its health checks use their traffic intervals. */
    void carried() {
        if (healthChecker != null) {
            healthChecker.onTraffic();
        }
    }

    /** Hands this caller's decisions to the run's recorder with the caller's number; only caller 0's intervals. */
    private record Listener(int client, RunRecorder recorder) implements DetectorListener {
        @Override
        public void onEvent(OutlierEvent event) {
            recorder.onEvent(client, event);
        }

        @Override
        public void onDegradation(DegradationEvent event) {
            recorder.onDegradation(client, event);
        }

        @Override
        public boolean wantsIntervals() {
            return client == 0 && recorder.wantsIntervals();
        }

        @Override
        public void onInterval(IntervalEvaluation evaluation) {
            recorder.onInterval(evaluation);
        }
    }
}
