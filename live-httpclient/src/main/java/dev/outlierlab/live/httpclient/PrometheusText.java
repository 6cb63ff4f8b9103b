package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.EndpointState;
import dev.outlierlab.live.PoolCounters;
import dev.outlierlab.live.PoolSnapshot;
import java.util.List;
import java.util.Map;

/**
 * A pool's snapshot in the Prometheus text format (version 0.0.4), for the proxy's {@code /stats}, under the
 * names {@code live-micrometer}'s meters get from a Prometheus registry, which are Envoy's own
 * ({@code /stats/prometheus}): the profile's statistics as
 * {@code envoy_cluster_outlier_detection_<stat>} (Envoy's {@code ejections_active} gauge and counters),
 * per endpoint {@code envoy_cluster_outlier_detection_host_ejected} and {@code ..._host_ejections_total},
 * and the lab's {@code outlier_lab_stage_requests_total{action}} (requests whose stage acted),
 * {@code outlier_lab_outcomes_total{result}}, {@code outlier_lab_requests_filtered_total},
 * {@code outlier_lab_listener_errors_total} and {@code outlier_lab_mode{mode}}. Every series is labelled
 * {@code envoy_cluster_name} (the pool) and {@code profile}; counters end in {@code _total}.
 */
public final class PrometheusText {
    private PrometheusText() {}

    public static String render(PoolSnapshot s) {
        StringBuilder sb = new StringBuilder(4096);
        String labels = "envoy_cluster_name=" + StageLog.quote(s.pool()) + ",profile=" + StageLog.quote(s.profile());
        for (Map.Entry<String, Long> e : s.detectorStats().entrySet()) {
            boolean gauge = e.getKey().equals("ejections_active");
            String name = "envoy_cluster_outlier_detection_" + e.getKey();
            metric(
                    sb,
                    gauge ? name : counter(name),
                    gauge ? "gauge" : "counter",
                    s.profile() + " detector statistic " + e.getKey(),
                    labels,
                    e.getValue());
        }
        header(
                sb,
                "envoy_cluster_outlier_detection_host_ejected",
                "gauge",
                "1 while the endpoint is held ejected (virtually in shadow)");
        for (EndpointState e : s.endpoints()) {
            line(
                    sb,
                    "envoy_cluster_outlier_detection_host_ejected",
                    labels + ",endpoint=" + StageLog.quote(e.name()),
                    e.ejected() ? 1 : 0);
        }
        header(
                sb,
                "envoy_cluster_outlier_detection_host_ejections_total",
                "counter",
                "ejections of the endpoint since the pool started");
        for (EndpointState e : s.endpoints()) {
            line(
                    sb,
                    "envoy_cluster_outlier_detection_host_ejections_total",
                    labels + ",endpoint=" + StageLog.quote(e.name()),
                    e.ejections());
        }
        PoolCounters c = s.counters();
        header(sb, "outlier_lab_stage_requests_total", "counter", "requests whose stage acted, by action");
        line(sb, "outlier_lab_stage_requests_total", labels + ",action=\"eject\"", c.stageEject());
        line(sb, "outlier_lab_stage_requests_total", labels + ",action=\"kept_all\"", c.stageKeptAll());
        line(sb, "outlier_lab_stage_requests_total", labels + ",action=\"would_eject\"", c.stageWouldEject());
        header(sb, "outlier_lab_outcomes_total", "counter", "outcomes by what became of them");
        line(sb, "outlier_lab_outcomes_total", labels + ",result=\"recorded\"", c.accepted());
        line(sb, "outlier_lab_outcomes_total", labels + ",result=\"applied\"", c.applied());
        line(sb, "outlier_lab_outcomes_total", labels + ",result=\"discarded\"", c.discarded());
        line(sb, "outlier_lab_outcomes_total", labels + ",result=\"ignored_off\"", c.ignoredOff());
        metric(
                sb,
                "outlier_lab_requests_filtered_total",
                "counter",
                "requests whose candidates went through the stage",
                labels,
                c.filtered());
        metric(
                sb,
                "outlier_lab_listener_errors_total",
                "counter",
                "exceptions and errors thrown by listeners, caught",
                labels,
                c.listenerErrors());
        header(sb, "outlier_lab_mode", "gauge", "1 for the pool's current mode");
        for (String mode : List.of("off", "shadow", "prod")) {
            line(
                    sb,
                    "outlier_lab_mode",
                    labels + ",mode=\"" + mode + "\"",
                    s.mode().configName().equals(mode) ? 1 : 0);
        }
        return sb.toString();
    }

    private static String counter(String name) {
        return name.endsWith("_total") ? name : name + "_total";
    }

    private static void metric(StringBuilder sb, String name, String type, String help, String labels, long value) {
        header(sb, name, type, help);
        line(sb, name, labels, value);
    }

    private static void header(StringBuilder sb, String name, String type, String help) {
        sb.append("# HELP ")
                .append(name)
                .append(' ')
                .append(help)
                .append('\n')
                .append("# TYPE ")
                .append(name)
                .append(' ')
                .append(type)
                .append('\n');
    }

    private static void line(StringBuilder sb, String name, String labels, long value) {
        sb.append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }
}
