package dev.outlierlab.sim.health;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;

/**
 * Active health checking in the lab: at each multiple of the interval every host is probed. A probe fails
 * only while the host is in a fault with {@code fails_health_check}. Consecutive failures reaching
 * {@code unhealthy_threshold} mark the host failed (Envoy's FAILED_ACTIVE_HC); consecutive passes reaching
 * {@code healthy_threshold} clear it. Every passing probe of a host not marked failed is offered to the
 * detector's {@code successful_active_health_check_uneject_host} hook, as Envoy's check-complete callback does.
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
        this.nextCheckNanos = spec.intervalNanos();
    }

    /** Time of the next round of probes. */
    public long nextCheckNanos() {
        return nextCheckNanos;
    }

    /** Probes every host at the scheduled time and schedules the next round. */
    public void runChecks(HostMonitor[] monitors, OutlierDetector detector, FaultInjector faults, LoadBalancer balancer) {
        long now = nextCheckNanos;
        for (int h = 0; h < monitors.length; h++) {
            if (faults.failsHealthCheck(h, now)) {
                consecutivePasses[h] = 0;
                if (++consecutiveFailures[h] >= spec.unhealthyThreshold()) {
                    balancer.setHealthCheckFailed(h, true);
                }
            } else {
                consecutiveFailures[h] = 0;
                if (++consecutivePasses[h] >= spec.healthyThreshold()) {
                    balancer.setHealthCheckFailed(h, false);
                }
                if (!balancer.isHealthCheckFailed(h)) {
                    detector.onActiveHealthCheckSuccess(monitors[h], now);
                }
            }
        }
        nextCheckNanos += spec.intervalNanos();
    }
}
