package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.EndpointState;
import dev.outlierlab.live.PoolCounters;
import dev.outlierlab.live.PoolSnapshot;
import java.util.Map;

/**
 * A pool's snapshot in the Prometheus text format (version 0.0.4), for the proxy's {@code /stats}: the
 * profile's own statistics under its names with an {@code outlier_lab_} prefix (Envoy's
 * {@code ejections_active}, {@code ejections_enforced_total}, ...), the stage and outcome counters, and
 * one {@code outlier_lab_endpoint_ejected} gauge per endpoint; every series is labelled by pool.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    public static String render(PoolSnapshot s) {
        StringBuilder sb = new StringBuilder(2048);
        String pool = "pool=" + StageLog.quote(s.pool());
        for (Map.Entry<String, Long> e : s.detectorStats().entrySet()) {
            boolean gauge = e.getKey().equals("ejections_active");
            metric(sb, "outlier_lab_" + e.getKey(), gauge ? "gauge" : "counter",
                    s.profile() + " detector statistic " + e.getKey(), pool, e.getValue());
        }
        PoolCounters c = s.counters();
        metric(sb, "outlier_lab_outcomes_recorded", "counter", "outcomes accepted for the detector", pool, c.accepted());
        metric(sb, "outlier_lab_outcomes_applied", "counter", "outcomes the detector has applied", pool, c.applied());
        metric(sb, "outlier_lab_outcomes_discarded", "counter", "outcomes dropped because their endpoint was removed", pool, c.discarded());
        metric(sb, "outlier_lab_outcomes_ignored_off", "counter", "outcomes not recorded because the mode was off", pool, c.ignoredOff());
        metric(sb, "outlier_lab_requests_filtered", "counter", "requests whose candidates went through the stage", pool, c.filtered());
        sb.append("# HELP outlier_lab_stage stage records by action\n# TYPE outlier_lab_stage counter\n");
        sb.append("outlier_lab_stage{").append(pool).append(",action=\"eject\"} ").append(c.stageEject()).append('\n');
        sb.append("outlier_lab_stage{").append(pool).append(",action=\"kept_all\"} ").append(c.stageKeptAll()).append('\n');
        sb.append("outlier_lab_stage{").append(pool).append(",action=\"would_eject\"} ").append(c.stageWouldEject()).append('\n');
        sb.append("# HELP outlier_lab_endpoint_ejected 1 while the endpoint is held ejected (virtually in shadow)\n")
                .append("# TYPE outlier_lab_endpoint_ejected gauge\n");
        for (EndpointState e : s.endpoints()) {
            sb.append("outlier_lab_endpoint_ejected{").append(pool).append(",endpoint=").append(StageLog.quote(e.name()))
                    .append("} ").append(e.ejected() ? 1 : 0).append('\n');
        }
        sb.append("# HELP outlier_lab_endpoint_ejections_total ejections of the endpoint since the pool started\n")
                .append("# TYPE outlier_lab_endpoint_ejections_total counter\n");
        for (EndpointState e : s.endpoints()) {
            sb.append("outlier_lab_endpoint_ejections_total{").append(pool).append(",endpoint=")
                    .append(StageLog.quote(e.name())).append("} ").append(e.ejections()).append('\n');
        }
        sb.append("# HELP outlier_lab_mode the pool's mode\n# TYPE outlier_lab_mode gauge\n");
        sb.append("outlier_lab_mode{").append(pool).append(",mode=\"").append(s.mode().configName()).append("\"} 1\n");
        return sb.toString();
    }

    private static void metric(StringBuilder sb, String name, String type, String help, String labels, long value) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
                .append("# TYPE ").append(name).append(' ').append(type).append('\n')
                .append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }
}
