package dev.outlierlab.sim.health;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;

/**
 * Active health checking in the lab: every host is probed at t = 0 and at each multiple of the interval. A probe
 * fails only while the host is in a fault with {@code fails_health_check}, in that fault's way, and Envoy's
 * {@code setUnhealthy} decides what a failure does: an unexpected HTTP status marks the host failed (Envoy's
 * FAILED_ACTIVE_HC) at once; a timeout or a refused connection counts toward {@code unhealthy_threshold}
 * consecutive failures. Consecutive passes reaching {@code healthy_threshold} clear the mark. Every probe of a host
 * not marked failed after it is reported to the detector's {@code successful_active_health_check_uneject_host}
 * hook, as Envoy's check-complete callback is (which returns the host on a pass, and before Envoy 1.31 on a failing
 * probe too).
 */
public final class ActiveHealthChecker {
    private final HealthCheckSpec spec;
    private final long[] consecutiveFailures;
    private final long[] consecutivePasses;
    private long nextCheckNanos;

    public ActiveHealthChecker(HealthCheckSpec spec, int hosts) {
        this.spec = spec;
        this.consecutiveFailures = new long[hosts];
        this.consecutivePasses = new long[hosts];
        this.nextCheckNanos = 0;
    }

    /** Time of the next round of probes. */
    public long nextCheckNanos() {
        return nextCheckNanos;
    }

    /** Probes every host at the scheduled time and schedules the next round. */
    public void runChecks(HostMonitor[] monitors, OutlierDetector detector, FaultInjector faults, LoadBalancer balancer) {
        long now = nextCheckNanos;
        for (int h = 0; h < monitors.length; h++) {
            HealthCheckFailure failure = faults.healthCheckFailure(h, now);
            boolean passed = failure == null;
            if (!passed) {
                consecutivePasses[h] = 0;
                if (!failure.countsTowardThreshold() || ++consecutiveFailures[h] >= spec.unhealthyThreshold()) {
                    balancer.setHealthCheckFailed(h, true);
                }
            } else {
                consecutiveFailures[h] = 0;
                if (++consecutivePasses[h] >= spec.healthyThreshold()) {
                    balancer.setHealthCheckFailed(h, false);
                }
            }
            if (!balancer.isHealthCheckFailed(h)) {
                detector.onActiveHealthCheck(monitors[h], passed, now);
            }
        }
        nextCheckNanos += spec.intervalNanos();
    }
}
