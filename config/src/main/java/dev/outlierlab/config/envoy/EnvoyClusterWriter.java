package dev.outlierlab.config.envoy;

import dev.outlierlab.config.Wording;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A scenario's cluster as an Envoy {@code Cluster} in YAML, for {@code outlier-lab export --envoy}: every
 * outlier-detection setting written out, the panic threshold, the health check, one endpoint per host, and the
 * routing the scenario runs with ({@link RoutingClusterText}: {@code lb_policy}, the endpoints' priorities and
 * localities, the overprovisioning factor, {@code fail_traffic_on_panic}; the route's retries as a comment, a route
 * not being part of a cluster).
 * {@link EnvoyConfigReader} reads it back to the same settings, panic threshold and host names: a host named
 * {@code address:port} becomes that socket address; any other name becomes the endpoint's {@code hostname}
 * with a placeholder address from 10.0.0.0/8.
 */
public final class EnvoyClusterWriter {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/-]*");
    private static final Pattern ADDRESS_PORT = Pattern.compile("(.+):([0-9]{1,5})");

    private EnvoyClusterWriter() {}

    public static String toYaml(Scenario s) {
        StringBuilder y = new StringBuilder();
        // the comment is not quoted: a name's control characters are shown as escapes, as in every report
        y.append("# Envoy cluster for scenario '")
                .append(Wording.printable(s.name()))
                .append("', written by outlier-lab.\n");
        RoutingSpec r = s.routing();
        RoutingClusterText.comments(r, y);
        y.append("name: ").append(quote(s.name())).append('\n');
        y.append("type: STATIC\nconnect_timeout: 1s\nlb_policy: ")
                .append(RoutingClusterText.lbPolicy(r))
                .append('\n');
        RoutingClusterText.leastRequest(r, y);
        y.append("common_lb_config:\n  healthy_panic_threshold:\n    value: ")
                .append(number(s.cluster().panicThresholdPercent()))
                .append('\n');
        if (r.weighsLocalities()) {
            y.append("  locality_weighted_lb_config: {}\n");
        }
        if (r.failTrafficOnPanic()) {
            y.append("  zone_aware_lb_config:\n    fail_traffic_on_panic: true\n");
        }
        y.append("load_assignment:\n  cluster_name: ").append(quote(s.name())).append('\n');
        if (r.overprovisioningFactor() != RoutingSpec.DEFAULT_OVERPROVISIONING_FACTOR) {
            y.append("  policy:\n    overprovisioning_factor: ")
                    .append(r.overprovisioningFactor())
                    .append('\n');
        }
        y.append("  endpoints:\n");
        List<String> hosts = s.cluster().hosts();
        boolean placeholders = false;
        String group = null;
        for (int i = 0; i < hosts.size(); i++) {
            String h = hosts.get(i);
            // one endpoint group per run of hosts with the same priority and locality, so the hosts keep their order
            String g = RoutingClusterText.group(r, h);
            if (i == 0 || !g.equals(group)) {
                y.append(g);
                group = g;
            }
            var m = ADDRESS_PORT.matcher(h);
            if (m.matches() && Integer.parseInt(m.group(2)) <= 65535 && !h.contains("#")) {
                y.append("    - endpoint: {address: {socket_address: {address: ")
                        .append(quote(m.group(1)))
                        .append(", port_value: ")
                        .append(m.group(2))
                        .append("}}}\n");
            } else {
                placeholders = true;
                int n = i + 1;
                y.append("    - endpoint: {hostname: ")
                        .append(quote(h))
                        .append(", address: {socket_address: {address: 10.")
                        .append((n >> 16) & 255)
                        .append('.')
                        .append((n >> 8) & 255)
                        .append('.')
                        .append(n & 255)
                        .append(", port_value: 80}}}\n");
            }
        }
        if (placeholders) {
            y.append("    # the addresses above are placeholders: put your endpoints' addresses there\n");
        }
        HealthCheckSpec hc = s.healthChecks();
        if (hc != null) {
            y.append("health_checks:\n- timeout: ")
                    .append(Durations.format(hc.timeoutNanos()))
                    .append("\n  interval: ")
                    .append(Durations.format(hc.intervalNanos()));
            optional(
                    y,
                    "no_traffic_interval",
                    hc.noTrafficIntervalNanos(),
                    HealthCheckSpec.DEFAULT_NO_TRAFFIC_INTERVAL_NANOS);
            optional(y, "no_traffic_healthy_interval", hc.noTrafficHealthyIntervalNanos(), hc.noTrafficIntervalNanos());
            optional(y, "unhealthy_interval", hc.unhealthyIntervalNanos(), hc.intervalNanos());
            optional(y, "unhealthy_edge_interval", hc.unhealthyEdgeIntervalNanos(), hc.unhealthyIntervalNanos());
            optional(y, "healthy_edge_interval", hc.healthyEdgeIntervalNanos(), hc.intervalNanos());
            y.append("\n  unhealthy_threshold: ")
                    .append(hc.unhealthyThreshold())
                    .append("\n  healthy_threshold: ")
                    .append(hc.healthyThreshold())
                    .append("\n  http_health_check:\n    path: /healthz\n");
        }
        y.append("outlier_detection:\n");
        for (Map.Entry<OutlierSetting, Long> e : s.outlierDetection().asMap().entrySet()) {
            EnvoyVersion added = EnvoyVersion.addedIn(e.getKey());
            if (added != null && !s.envoyVersion().atLeast(added)) {
                continue;
            }
            y.append("  ")
                    .append(e.getKey().envoyName())
                    .append(": ")
                    .append(ScenarioWriter.settingValue(e.getKey(), e.getValue()))
                    .append('\n');
        }
        return y.toString();
    }

    private static String quote(String s) {
        if (PLAIN.matcher(s).matches()
                && !s.matches("(?i)true|false|yes|no|on|off|y|n|null|~|[0-9_]+(\\.[0-9_]*)?(e[0-9]+)?")) {
            return s;
        }
        StringBuilder q = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\t' -> q.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        q.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
                    } else {
                        q.append(ch);
                    }
                }
            }
        }
        return q.append('"').toString();
    }

    private static String number(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** A health-check interval, written only where it differs from the default it would otherwise take. */
    private static void optional(StringBuilder y, String key, long nanos, long defaultNanos) {
        if (nanos != defaultNanos) {
            y.append("\n  ").append(key).append(": ").append(Durations.format(nanos));
        }
    }
}
