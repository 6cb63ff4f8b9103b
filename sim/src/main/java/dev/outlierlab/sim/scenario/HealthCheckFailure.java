package dev.outlierlab.sim.scenario;

import java.util.Locale;

/**
 * How a host in a fault with {@code fails_health_check} fails its active health checks, and what Envoy's
 * health checker makes of it ({@code HealthCheckerImplBase::ActiveHealthCheckSession::setUnhealthy}): an HTTP
 * health check answered with a status it does not expect is a non-retriable {@code ACTIVE} failure and fails
 * the host at once; a probe that times out ({@code NETWORK_TIMEOUT}) or whose connection is refused
 * ({@code NETWORK}) counts toward {@code unhealthy_threshold}.
 */
public enum HealthCheckFailure {
    /** The probe is answered with an unexpected HTTP status (e.g. 503): the host is failed at once. */
    STATUS,
    /** The probe times out: one failure toward {@code unhealthy_threshold}. */
    TIMEOUT,
    /** The probe's connection is refused: one failure toward {@code unhealthy_threshold}. */
    REFUSED;

    /** The name in scenario files, e.g. {@code timeout}. */
    public String scenarioName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether Envoy counts this failure toward {@code unhealthy_threshold} rather than failing the host at once. */
    public boolean countsTowardThreshold() {
        return this != STATUS;
    }

    /** The kind with this scenario name, or null. */
    public static HealthCheckFailure byScenarioName(String name) {
        for (HealthCheckFailure k : values()) {
            if (k.scenarioName().equals(name)) {
                return k;
            }
        }
        return null;
    }
}
