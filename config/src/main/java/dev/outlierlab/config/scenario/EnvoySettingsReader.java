package dev.outlierlab.config.scenario;

import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A scenario's Envoy settings: {@code outlier_detection} (every field of Envoy's {@code OutlierDetection}, by its
 * kind: a duration, a percentage, a count or a flag, validated as Envoy validates the cluster) and
 * {@code health_checks} (the active health check's thresholds and intervals, each defaulting as Envoy's
 * {@code HealthCheckerImplBase} does).
 */
final class EnvoySettingsReader {
    private static final Set<String> HEALTH = Set.of(
            "interval",
            "unhealthy_threshold",
            "healthy_threshold",
            "timeout",
            "no_traffic_interval",
            "no_traffic_healthy_interval",
            "unhealthy_interval",
            "unhealthy_edge_interval",
            "healthy_edge_interval");

    private EnvoySettingsReader() {}

    static OutlierDetectionConfig outlierDetection(Values v, Located node) {
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        if (node == null || node.value() == null) {
            return b.build();
        }
        Set<String> names = new LinkedHashSet<>();
        for (OutlierSetting s : OutlierSetting.values()) {
            names.add(s.envoyName());
        }
        Map<String, Located> od = v.map(node, "outlier_detection", names);
        for (Map.Entry<String, Located> e : od.entrySet()) {
            OutlierSetting s = OutlierSetting.byEnvoyName(e.getKey());
            String key = "outlier_detection." + e.getKey();
            Located val = e.getValue();
            long value = switch (s.kind()) {
                case DURATION -> v.outlierDuration(val, key, s);
                case BOOLEAN -> v.bool(val, key, false) ? 1 : 0;
                case PERCENT -> v.percent(val, key, 0, 0, 100);
                case COUNT -> v.integer(val, key, 0, 0, OutlierSetting.UINT32_MAX);
            };
            b.set(s, value);
        }
        try {
            return b.build();
        } catch (InvalidConfigException e) {
            Located where = od.getOrDefault(e.key(), node);
            throw Values.errorShown(where, "outlier_detection." + e.key(), e.value(), e.allowed());
        }
    }

    static HealthCheckSpec healthChecks(Values v, Located node) {
        if (node == null || node.value() == null) {
            return null;
        }
        Map<String, Located> h = v.map(node, "health_checks", HEALTH);
        long interval = v.duration(h.get("interval"), "health_checks.interval", 5_000_000_000L, false);
        long unhealthy = v.integer(h.get("unhealthy_threshold"), "health_checks.unhealthy_threshold", 3, 1, 1_000_000);
        long healthy = v.integer(h.get("healthy_threshold"), "health_checks.healthy_threshold", 2, 1, 1_000_000);
        // Envoy's defaults (HealthCheckerImplBase's constructor): each interval defaults to the one it refines
        long timeout =
                v.duration(h.get("timeout"), "health_checks.timeout", HealthCheckSpec.DEFAULT_TIMEOUT_NANOS, false);
        long noTraffic = v.duration(
                h.get("no_traffic_interval"),
                "health_checks.no_traffic_interval",
                HealthCheckSpec.DEFAULT_NO_TRAFFIC_INTERVAL_NANOS,
                false);
        long noTrafficHealthy = v.duration(
                h.get("no_traffic_healthy_interval"), "health_checks.no_traffic_healthy_interval", noTraffic, false);
        long unhealthyInterval =
                v.duration(h.get("unhealthy_interval"), "health_checks.unhealthy_interval", interval, false);
        long unhealthyEdge = v.duration(
                h.get("unhealthy_edge_interval"), "health_checks.unhealthy_edge_interval", unhealthyInterval, false);
        long healthyEdge =
                v.duration(h.get("healthy_edge_interval"), "health_checks.healthy_edge_interval", interval, false);
        return v.guard(
                node,
                "health_checks",
                () -> new HealthCheckSpec(
                        interval,
                        unhealthy,
                        healthy,
                        timeout,
                        noTraffic,
                        noTrafficHealthy,
                        unhealthyInterval,
                        unhealthyEdge,
                        healthyEdge));
    }
}
