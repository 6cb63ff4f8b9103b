package dev.outlierlab.sim.health;

import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.Arrays;

/**
 * Active health checking in the lab, one session per host as in Envoy's {@code HealthCheckerImplBase}
 * ({@code source/extensions/health_checkers/common/health_checker_base_impl.cc}). Every host starts failed
 * (FAILED_ACTIVE_HC, as {@code StaticClusterImpl::startPreInit} marks a health-checked cluster's hosts) and is
 * probed at t = 0; the next probe is armed when the response comes, after {@link HealthCheckSpec}'s interval for
 * the result (Envoy's {@code interval}: the no-traffic intervals until the cluster has carried a request). A probe
 * fails only while the host is in a fault with {@code fails_health_check}, in that fault's way: an unexpected HTTP
 * status fails the host at once, a refused connection counts toward {@code unhealthy_threshold} at once, a timeout
 * counts {@code timeout} after the probe ({@code setUnhealthy}). The first passing probe clears a host at once, later
 * ones count toward {@code healthy_threshold} ({@code handleSuccess}). Every response of a host not failed after it is
 * reported to the detector's {@code successful_active_health_check_uneject_host} hook, as Envoy's check-complete
 * callback is (which returns the host on a pass, and before Envoy 1.31 on a failing probe too).
 */
public final class ActiveHealthChecker {
    private enum Transition {
        UNCHANGED,
        CHANGE_PENDING,
        CHANGED
    }

    private final HealthCheckSpec spec;
    private final long[] consecutiveFailures;
    private final long[] consecutivePasses;
    private final boolean[] firstCheck;
    /** The time of each host's next event: a probe, or the timeout of the probe in flight. */
    private final long[] nextEventNanos;

    private final boolean[] timingOut;
    private boolean trafficCarried;
    private long nextCheckNanos;

    public ActiveHealthChecker(HealthCheckSpec spec, int hosts) {
        this.spec = spec;
        this.consecutiveFailures = new long[hosts];
        this.consecutivePasses = new long[hosts];
        this.firstCheck = new boolean[hosts];
        this.nextEventNanos = new long[hosts];
        this.timingOut = new boolean[hosts];
        Arrays.fill(firstCheck, true);
        this.nextCheckNanos = 0;
    }

    /** Marks every host failed until its first probe passes, as Envoy starts a health-checked static cluster. */
    public void start(LoadBalancer balancer) {
        for (int h = 0; h < nextEventNanos.length; h++) {
            balancer.setHealthCheckFailed(h, true);
        }
    }

    /** The cluster sent a request to a host (Envoy's {@code upstream_cx_total} is used): the traffic intervals apply. */
    public void onTraffic() {
        trafficCarried = true;
    }

    /** Time of the next probe or probe timeout of any host. */
    public long nextCheckNanos() {
        return nextCheckNanos;
    }

    /** Runs every host's probe or probe timeout due at {@link #nextCheckNanos()}, in host order, and schedules on. */
    public void runChecks(
            HostMonitor[] monitors, OutlierDetector detector, FaultInjector faults, LoadBalancer balancer) {
        long now = nextCheckNanos;
        for (int h = 0; h < monitors.length; h++) {
            if (nextEventNanos[h] != now) {
                continue;
            }
            if (timingOut[h]) {
                timingOut[h] = false;
                respond(h, HealthCheckFailure.TIMEOUT, now, monitors[h], detector, balancer);
                continue;
            }
            HealthCheckFailure failure = faults.healthCheckFailure(h, now);
            if (failure == HealthCheckFailure.TIMEOUT) {
                timingOut[h] = true;
                nextEventNanos[h] = now + spec.timeoutNanos();
            } else {
                respond(h, failure, now, monitors[h], detector, balancer);
            }
        }
        long next = Long.MAX_VALUE;
        for (long t : nextEventNanos) {
            next = Math.min(next, t);
        }
        nextCheckNanos = next;
    }

    /** {@code handleSuccess} or {@code handleFailure}, then the next probe armed after Envoy's interval. */
    private void respond(
            int h,
            HealthCheckFailure failure,
            long now,
            HostMonitor monitor,
            OutlierDetector detector,
            LoadBalancer balancer) {
        boolean passed = failure == null;
        boolean failed = balancer.isHealthCheckFailed(h);
        Transition transition = Transition.UNCHANGED;
        if (passed) {
            consecutiveFailures[h] = 0;
            if (failed) {
                if (firstCheck[h] || ++consecutivePasses[h] == spec.healthyThreshold()) {
                    balancer.setHealthCheckFailed(h, false);
                    transition = Transition.CHANGED;
                } else {
                    transition = Transition.CHANGE_PENDING;
                }
            }
        } else {
            consecutivePasses[h] = 0;
            if (!failed) {
                if (!failure.countsTowardThreshold() || ++consecutiveFailures[h] == spec.unhealthyThreshold()) {
                    balancer.setHealthCheckFailed(h, true);
                    transition = Transition.CHANGED;
                } else {
                    transition = Transition.CHANGE_PENDING;
                }
            }
        }
        firstCheck[h] = false;
        if (!balancer.isHealthCheckFailed(h)) {
            detector.onActiveHealthCheck(monitor, passed, now);
        }
        nextEventNanos[h] = now + interval(passed, transition);
    }

    /** Envoy's {@code HealthCheckerImplBase::interval} (no jitter). */
    private long interval(boolean healthy, Transition transition) {
        boolean pending = transition == Transition.CHANGE_PENDING;
        if (!trafficCarried) {
            return healthy && !pending ? spec.noTrafficHealthyIntervalNanos() : spec.noTrafficIntervalNanos();
        }
        if (healthy) {
            return pending ? spec.healthyEdgeIntervalNanos() : spec.intervalNanos();
        }
        return pending ? spec.unhealthyEdgeIntervalNanos() : spec.unhealthyIntervalNanos();
    }
}
