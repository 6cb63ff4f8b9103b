package dev.outlierlab.config.envoy;

import com.google.protobuf.Duration;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import java.util.List;

/**
 * A cluster's active health check as the lab simulates it, for {@link ClusterExtractor}: the first of its
 * {@code health_checks} ({@code interval}, {@code timeout}, both thresholds and a health checker are required, as
 * Envoy requires them), its intervals in whole milliseconds as Envoy reads them, each defaulting to the one it
 * refines.
 */
final class HealthCheckExtractor {
    private HealthCheckExtractor() {}

    /**
     * The cluster's first health check, or null when it has none or a required field is missing (each missing
     * field added to {@code problems}); what the lab does not model is added to {@code notes}.
     */
    static HealthCheckSpec extract(Cluster c, List<InvalidConfigException> problems, List<String> notes) {
        if (c.getHealthChecksCount() == 0) {
            return null;
        }
        if (c.getHealthChecksCount() > 1) {
            notes.add("only the first of " + c.getHealthChecksCount() + " health_checks is modelled");
        }
        HealthCheck hc = c.getHealthChecks(0);
        int before = problems.size();
        require(
                hc.hasTimeout() && positive(hc.getTimeout()),
                "timeout",
                "a duration greater than 0 (required)",
                problems);
        require(
                hc.hasInterval() && positive(hc.getInterval()),
                "interval",
                "a duration greater than 0 (required)",
                problems);
        require(hc.hasUnhealthyThreshold(), "unhealthy_threshold", "a whole number (required)", problems);
        require(hc.hasHealthyThreshold(), "healthy_threshold", "a whole number (required)", problems);
        require(
                hc.getHealthCheckerCase() != HealthCheck.HealthCheckerCase.HEALTHCHECKER_NOT_SET,
                "health_checker",
                "one of http_health_check, tcp_health_check, grpc_health_check, custom_health_check (required)",
                problems);
        if (problems.size() > before) {
            return null;
        }
        if (hc.hasIntervalJitter() || hc.getIntervalJitterPercent() > 0 || hc.hasInitialJitter()) {
            notes.add("health_checks[0]: jitter (interval_jitter, interval_jitter_percent, initial_jitter) is not "
                    + "modelled: every probe comes exactly on its interval");
        }
        try {
            // HealthCheckerImplBase reads every interval with PROTOBUF_GET_MS_OR_DEFAULT (whole milliseconds), each
            // defaulting to the one it refines
            long interval = millis(hc.getInterval());
            long timeout = millis(hc.getTimeout());
            long noTraffic = hc.hasNoTrafficInterval()
                    ? millis(hc.getNoTrafficInterval())
                    : HealthCheckSpec.DEFAULT_NO_TRAFFIC_INTERVAL_NANOS;
            long noTrafficHealthy =
                    hc.hasNoTrafficHealthyInterval() ? millis(hc.getNoTrafficHealthyInterval()) : noTraffic;
            long unhealthyInterval = hc.hasUnhealthyInterval() ? millis(hc.getUnhealthyInterval()) : interval;
            long unhealthyEdge =
                    hc.hasUnhealthyEdgeInterval() ? millis(hc.getUnhealthyEdgeInterval()) : unhealthyInterval;
            long healthyEdge = hc.hasHealthyEdgeInterval() ? millis(hc.getHealthyEdgeInterval()) : interval;
            return new HealthCheckSpec(
                    interval,
                    Integer.toUnsignedLong(hc.getUnhealthyThreshold().getValue()),
                    Integer.toUnsignedLong(hc.getHealthyThreshold().getValue()),
                    timeout,
                    noTraffic,
                    noTrafficHealthy,
                    unhealthyInterval,
                    unhealthyEdge,
                    healthyEdge);
        } catch (InvalidConfigException e) {
            problems.add(new InvalidConfigException(e.key(), e.value(), e.allowed()));
            return null;
        } catch (ArithmeticException e) {
            problems.add(new InvalidConfigException(
                    "health_checks.interval", hc.getInterval().getSeconds() + "s", "a duration of at most 10 years"));
            return null;
        }
    }

    /** A health-check duration in whole milliseconds, as nanoseconds (Envoy truncates the rest). */
    private static long millis(Duration d) {
        long ms = Math.addExact(Math.multiplyExact(d.getSeconds(), 1000L), d.getNanos() / 1_000_000);
        return Math.multiplyExact(ms, Durations.MILLISECOND);
    }

    private static void require(boolean ok, String field, String allowed, List<InvalidConfigException> problems) {
        if (!ok) {
            problems.add(new InvalidConfigException("health_checks[0]." + field, "missing or not allowed", allowed));
        }
    }

    private static boolean positive(Duration d) {
        return d.getSeconds() > 0 || d.getSeconds() == 0 && d.getNanos() > 0;
    }
}
