package dev.outlierlab.check;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An active health check with {@code successful_active_health_check_uneject_host}: an ejected host returns at its
 * next passing check instead of after the ejection time, with its counters cleared.
 */
final class HealthCheckUnejectCheck {
    private HealthCheckUnejectCheck() {}

    static void check(OutlierDetectionConfig c, Integer hosts, Long rps, FindingSink sink) {
        CheckTarget target = sink.target();
        HealthCheckSpec hc = target.healthChecks();
        if (hc == null || !c.successfulActiveHealthCheckUnejectHost()) {
            return;
        }
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("health_check_interval_seconds", Durations.toSeconds(hc.intervalNanos()));
        n.put("base_ejection_time_seconds", Durations.toSeconds(c.baseEjectionTimeNanos()));
        n.put("successful_active_health_check_uneject_host", true);
        sink.add(
                Rule.HEALTH_CHECK_RETURNS_EJECTED,
                Severity.WARNING,
                "an ejected host returns at its next passing active "
                        + "health check, every " + Durations.format(hc.intervalNanos()) + ", instead of after "
                        + Durations.format(c.baseEjectionTimeNanos())
                        + ", and its counters are cleared: a health check "
                        + "that does not exercise what fails undoes every ejection"
                        + (sink.version().failingHealthCheckUnejects()
                                ? "; and before Envoy 1.31 a failing check, until "
                                        + "unhealthy_threshold marks the host failed, returns it too"
                                : ""),
                n,
                List.of(new FixStyle.Change(
                        "outlier_detection.successful_active_health_check_uneject_host",
                        false,
                        "or make the health check exercise the failing dependency")),
                target.line());
    }
}
