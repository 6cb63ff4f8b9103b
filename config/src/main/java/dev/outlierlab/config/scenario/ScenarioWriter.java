package dev.outlierlab.config.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario as plain maps and lists in the scenario-file format, with every default filled in: what
 * {@code run --format json} prints under {@code "scenario"}, and what {@link ScenarioReader} reads back to an
 * equal scenario.
 */
public final class ScenarioWriter {
    private ScenarioWriter() {}

    public static Map<String, Object> toMap(Scenario s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name());
        m.put("duration", Durations.format(s.durationNanos()));
        m.put("seed", s.seed());
        m.put("envoy_version", s.envoyVersion().toString());
        Map<String, Object> cluster = new LinkedHashMap<>();
        cluster.put("hosts", hostsValue(s.cluster()));
        cluster.put("panic_threshold", number(s.cluster().panicThresholdPercent()));
        m.put("cluster", cluster);
        Map<String, Object> traffic = new LinkedHashMap<>();
        traffic.put("rps", s.traffic().rps());
        if (s.traffic().clients() > 1) {
            traffic.put("clients", s.traffic().clients());
        }
        LoadWriter.put(s, cluster, traffic);
        RoutingWriter.put(s, cluster, traffic);
        m.put("traffic", traffic);
        List<Object> faults = new ArrayList<>();
        for (FaultSpec f : s.faults()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("hosts", f.hosts());
            fm.put("start", Durations.format(f.startNanos()));
            fm.put("end", Durations.format(f.endNanos()));
            BigDecimal rate = BigDecimal.valueOf(f.errorRatePpm(), 4).stripTrailingZeros();
            if (f.degraded()) {
                fm.put("kind", "degraded");
            }
            fm.put("error_rate", rate.scale() <= 0 ? (Object) rate.longValueExact() : rate);
            if (!f.degraded()) {
                fm.put("status", f.status());
                if (f.result() != null) {
                    fm.put("result", f.result().traceName());
                }
                fm.put(
                        "fails_health_check",
                        f.failsHealthCheck() ? f.healthCheckFailure().scenarioName() : (Object) false);
            }
            if (f.latencyNanos() > 0) {
                fm.put("latency", Durations.format(f.latencyNanos()));
            }
            fm.put("pattern", f.pattern().scenarioName());
            if (f.pattern() == FaultPattern.BURSTS) {
                BigDecimal burst = BigDecimal.valueOf(f.burstLengthMilli(), 3).stripTrailingZeros();
                fm.put("burst_length", burst.scale() <= 0 ? (Object) burst.longValueExact() : burst);
            }
            faults.add(fm);
        }
        m.put("faults", faults);
        Map<String, Object> od = new LinkedHashMap<>();
        // a field the scenario's release does not have is left out, as its reader requires (it is at its default)
        s.outlierDetection().asMap().forEach((setting, value) -> {
            EnvoyVersion added = EnvoyVersion.addedIn(setting);
            if (added == null || s.envoyVersion().atLeast(added)) {
                od.put(setting.envoyName(), settingValue(setting, value));
            }
        });
        m.put("outlier_detection", od);
        HealthCheckSpec hc = s.healthChecks();
        if (hc == null) {
            m.put("health_checks", null);
        } else {
            Map<String, Object> hm = new LinkedHashMap<>();
            hm.put("interval", Durations.format(hc.intervalNanos()));
            hm.put("unhealthy_threshold", hc.unhealthyThreshold());
            hm.put("healthy_threshold", hc.healthyThreshold());
            hm.put("timeout", Durations.format(hc.timeoutNanos()));
            hm.put("no_traffic_interval", Durations.format(hc.noTrafficIntervalNanos()));
            hm.put("no_traffic_healthy_interval", Durations.format(hc.noTrafficHealthyIntervalNanos()));
            hm.put("unhealthy_interval", Durations.format(hc.unhealthyIntervalNanos()));
            hm.put("unhealthy_edge_interval", Durations.format(hc.unhealthyEdgeIntervalNanos()));
            hm.put("healthy_edge_interval", Durations.format(hc.healthyEdgeIntervalNanos()));
            m.put("health_checks", hm);
        }
        return m;
    }

    /**
     * A route retry policy as {@code traffic.retries} writes it: {@code "istio"} for istiod's default,
     * {@code "none"}, a mapping of Envoy's {@code retry_policy} fields, or null for no policy.
     */
    public static Object retriesValue(RetrySpec retry) {
        return RoutingWriter.retries(retry);
    }

    /** A setting's value in file form: durations as text, booleans as true/false, numbers as numbers. */
    public static Object settingValue(OutlierSetting setting, long value) {
        return switch (setting.kind()) {
            case DURATION -> Durations.format(value);
            case BOOLEAN -> value != 0;
            default -> value;
        };
    }

    private static Object hostsValue(ClusterSpec cluster) {
        List<String> hosts = cluster.hosts();
        for (int i = 0; i < hosts.size(); i++) {
            if (!hosts.get(i).equals("host-" + i)) {
                return hosts;
            }
        }
        return (long) hosts.size();
    }

    private static Object number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return (long) d;
        }
        return d;
    }
}
