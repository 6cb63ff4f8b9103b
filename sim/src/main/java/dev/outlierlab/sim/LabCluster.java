package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.health.ActiveHealthChecker;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One simulated cluster: the detector and its host monitors, the load balancer, faults, active health
 * checks and the recorder, with the scheduler that runs interval ticks (at {@code k * interval}, up to and
 * including the duration) and health-check rounds before anything that happens at or after their time.
 * At the same instant ticks run before health checks. Shared by synthetic traffic and trace replay.
 */
final class LabCluster {
    final Scenario scenario;
    final HostMonitor[] monitors;
    final OutlierDetector detector;
    final LoadBalancer balancer;
    final FaultInjector faults;
    final RunRecorder recorder;
    final boolean split;
    private final ActiveHealthChecker healthChecker;
    private final long intervalNanos;
    private final long durationNanos;
    private long nextTickNanos;
    private final RunWatcher watcher;
    private long rounds;

    LabCluster(Scenario scenario, RunOptions options) {
        this.scenario = scenario;
        List<String> hosts = scenario.cluster().hosts();
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < hosts.size(); h++) {
            index.put(hosts.get(h), h);
        }
        this.durationNanos = scenario.durationNanos();
        this.recorder = new RunRecorder(index, durationNanos, options);
        this.balancer = new LoadBalancer(hosts.size(), scenario.cluster().panicThresholdPercent());
        recorder.attach(balancer);
        this.detector = new OutlierDetector(scenario.outlierDetection(), new SeededRandom(scenario.seed()), recorder,
                scenario.envoyVersion());
        this.monitors = new HostMonitor[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            monitors[h] = detector.addHost(hosts.get(h));
        }
        this.faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        this.healthChecker = scenario.healthChecks() == null ? null
                : new ActiveHealthChecker(scenario.healthChecks(), hosts.size());
        if (healthChecker != null) {
            healthChecker.start(balancer);
        }
        this.intervalNanos = scenario.outlierDetection().intervalNanos();
        this.nextTickNanos = intervalNanos;
        this.split = scenario.outlierDetection().splitExternalLocalOriginErrors();
        this.watcher = options.watcher();
    }

    /** The earliest scheduled tick or health check; callers skip {@link #runDue} while time is before it. */
    long nextDueNanos() {
        long next = nextTickNanos <= durationNanos ? nextTickNanos : Long.MAX_VALUE;
        if (healthChecker != null && healthChecker.nextCheckNanos() <= durationNanos) {
            next = Math.min(next, healthChecker.nextCheckNanos());
        }
        return next;
    }

    /** Runs every tick and health-check round scheduled at or before {@code nanos}. */
    void runDue(long nanos) {
        while (true) {
            long tick = nextTickNanos <= durationNanos ? nextTickNanos : Long.MAX_VALUE;
            long check = healthChecker != null && healthChecker.nextCheckNanos() <= durationNanos
                    ? healthChecker.nextCheckNanos() : Long.MAX_VALUE;
            if ((++rounds & (RunWatcher.EVERY_ROUNDS - 1)) == 0) {
                watcher.progress(-1, -1);
            }
            if (tick <= check && tick <= nanos) {
                detector.tick(tick);
                nextTickNanos += intervalNanos;
            } else if (check < tick && check <= nanos) {
                healthChecker.runChecks(monitors, detector, faults, balancer);
                recorder.signals().membershipChanged(check);
            } else {
                return;
            }
        }
    }

    /**
     * Reports a request's outcome to its host as Envoy's HTTP router does (spec section 5): a connect success when
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

    /** A request went to a host: from now on health checks use their traffic intervals. */
    void carried() {
        if (healthChecker != null) {
            healthChecker.onTraffic();
        }
    }

    /** Runs the remaining ticks up to the duration and builds the result. */
    RunResult finish() {
        runDue(durationNanos);
        return recorder.finish(scenario, detector.stats());
    }
}
