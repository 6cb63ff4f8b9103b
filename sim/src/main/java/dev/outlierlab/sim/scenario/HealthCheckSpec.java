package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;

/**
 * Active health checking (opt-in): every host is probed at each multiple of {@code interval}; a probe fails
 * only while the host is in a fault with {@code fails_health_check}. After {@code unhealthyThreshold}
 * consecutive failures a host is unhealthy (out of rotation and not counted healthy for panic); after
 * {@code healthyThreshold} consecutive passes it is healthy again. A passing probe of a host that is not
 * unhealthy returns it from ejection when {@code successful_active_health_check_uneject_host} is on.
 */
public record HealthCheckSpec(long intervalNanos, long unhealthyThreshold, long healthyThreshold) {
    public HealthCheckSpec {
        if (intervalNanos <= 0 || intervalNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException("health_checks.interval", Durations.format(intervalNanos),
                    "a duration greater than 0, such as 5s");
        }
        if (unhealthyThreshold < 1 || unhealthyThreshold > 1_000_000) {
            throw new InvalidConfigException("health_checks.unhealthy_threshold", Long.toString(unhealthyThreshold),
                    "a whole number from 1 to 1000000");
        }
        if (healthyThreshold < 1 || healthyThreshold > 1_000_000) {
            throw new InvalidConfigException("health_checks.healthy_threshold", Long.toString(healthyThreshold),
                    "a whole number from 1 to 1000000");
        }
    }
}
