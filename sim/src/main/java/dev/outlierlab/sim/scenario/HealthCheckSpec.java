package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;

/**
 * Active health checking (opt-in), with Envoy's {@code HealthCheck} intervals ({@code HealthCheckerImplBase}'s
 * constructor and {@code interval}): every host is probed at start, and the next probe is armed after each
 * response. Until the cluster has carried traffic the wait is {@code no_traffic_interval} (default 60 s), or
 * {@code no_traffic_healthy_interval} (default the former) after a pass that leaves the host healthy; then
 * {@code interval} after a pass, {@code unhealthy_interval} (default {@code interval}) after a failure, and the
 * edge intervals while a change of state is pending ({@code healthy_edge_interval}, default {@code interval};
 * {@code unhealthy_edge_interval}, default {@code unhealthy_interval}). A probe that times out fails
 * {@code timeout} after it was sent (default 1 s; Envoy requires the field). After {@code unhealthyThreshold}
 * consecutive network failures a host is unhealthy; after {@code healthyThreshold} consecutive passes healthy again.
 */
public record HealthCheckSpec(
        long intervalNanos,
        long unhealthyThreshold,
        long healthyThreshold,
        long timeoutNanos,
        long noTrafficIntervalNanos,
        long noTrafficHealthyIntervalNanos,
        long unhealthyIntervalNanos,
        long unhealthyEdgeIntervalNanos,
        long healthyEdgeIntervalNanos) {
    /** Envoy's default {@code no_traffic_interval}. */
    public static final long DEFAULT_NO_TRAFFIC_INTERVAL_NANOS = 60_000_000_000L;
    /** The lab's default {@code timeout} (Envoy has none: the field is required). */
    public static final long DEFAULT_TIMEOUT_NANOS = 1_000_000_000L;

    public HealthCheckSpec {
        positive("interval", intervalNanos);
        positive("timeout", timeoutNanos);
        positive("no_traffic_interval", noTrafficIntervalNanos);
        positive("no_traffic_healthy_interval", noTrafficHealthyIntervalNanos);
        positive("unhealthy_interval", unhealthyIntervalNanos);
        positive("unhealthy_edge_interval", unhealthyEdgeIntervalNanos);
        positive("healthy_edge_interval", healthyEdgeIntervalNanos);
        if (unhealthyThreshold < 1 || unhealthyThreshold > 1_000_000) {
            throw new InvalidConfigException(
                    "health_checks.unhealthy_threshold",
                    Long.toString(unhealthyThreshold),
                    "a whole number from 1 to 1000000");
        }
        if (healthyThreshold < 1 || healthyThreshold > 1_000_000) {
            throw new InvalidConfigException(
                    "health_checks.healthy_threshold",
                    Long.toString(healthyThreshold),
                    "a whole number from 1 to 1000000");
        }
    }

    /** An interval and the two thresholds, every other field at Envoy's default. */
    public HealthCheckSpec(long intervalNanos, long unhealthyThreshold, long healthyThreshold) {
        this(
                intervalNanos,
                unhealthyThreshold,
                healthyThreshold,
                DEFAULT_TIMEOUT_NANOS,
                DEFAULT_NO_TRAFFIC_INTERVAL_NANOS,
                DEFAULT_NO_TRAFFIC_INTERVAL_NANOS,
                intervalNanos,
                intervalNanos,
                intervalNanos);
    }

    /** This spec with another {@code no_traffic_interval} (and {@code no_traffic_healthy_interval} following it). */
    public HealthCheckSpec withNoTrafficInterval(long nanos) {
        return new HealthCheckSpec(
                intervalNanos,
                unhealthyThreshold,
                healthyThreshold,
                timeoutNanos,
                nanos,
                nanos,
                unhealthyIntervalNanos,
                unhealthyEdgeIntervalNanos,
                healthyEdgeIntervalNanos);
    }

    /** The shortest wait between two probes of a host, for work estimates. */
    public long shortestIntervalNanos() {
        return Math.min(
                Math.min(
                        Math.min(intervalNanos, unhealthyIntervalNanos),
                        Math.min(unhealthyEdgeIntervalNanos, healthyEdgeIntervalNanos)),
                Math.min(noTrafficIntervalNanos, noTrafficHealthyIntervalNanos));
    }

    private static void positive(String key, long nanos) {
        if (nanos <= 0 || nanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "health_checks." + key, Durations.format(nanos), "a duration greater than 0, such as 5s");
        }
    }
}
