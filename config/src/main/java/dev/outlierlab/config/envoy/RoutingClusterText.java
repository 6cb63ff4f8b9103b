package dev.outlierlab.config.envoy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;

/**
 * The routing parts of {@link EnvoyClusterWriter}'s cluster, written so that {@link RoutingExtractor} reads the same
 * {@link RoutingSpec} back: {@code lb_policy} and {@code least_request_lb_config}, each endpoint group's
 * {@code priority} and {@code locality}, and, as comments at the top, what a {@code Cluster} cannot hold: the
 * route's retry policy (a route's {@code retry_policy}), istiod's locality failover (each calling sidecar gets its
 * own priorities, not this cluster's), and what the configuration set that the lab reads past. A scenario without
 * routing gets the lines it always got.
 */
final class RoutingClusterText {
    private RoutingClusterText() {}

    /** Envoy's {@code lb_policy} name; a policy only {@code load_balancing_policy} can say is written as Envoy's default. */
    static String lbPolicy(RoutingSpec r) {
        return r.lbPolicy() == LbPolicy.LOAD_BALANCING_POLICY_CONFIG
                ? LbPolicy.ROUND_ROBIN.name()
                : r.lbPolicy().name();
    }

    /** {@code least_request_lb_config} where it differs from Envoy's defaults (2 choices, bias 1.0). */
    static void leastRequest(RoutingSpec r, StringBuilder y) {
        if (r.lbPolicy() != LbPolicy.LEAST_REQUEST || r.choiceCount() == 2 && r.activeRequestBias() == 1.0) {
            return;
        }
        y.append("least_request_lb_config:\n");
        if (r.choiceCount() != 2) {
            y.append("  choice_count: ").append(r.choiceCount()).append('\n');
        }
        if (r.activeRequestBias() != 1.0) {
            y.append("  active_request_bias: {default_value: ")
                    .append(r.activeRequestBias())
                    .append(", runtime_key: upstream.least_request.active_request_bias}\n");
        }
    }

    /** The head of the endpoint group {@code host} is in: its locality and priority where the scenario gives them. */
    static String group(RoutingSpec r, String host) {
        StringBuilder g = new StringBuilder("  - ");
        String zone = r.zones().get(host);
        if (zone != null) {
            String[] p = zone.split("/", 3);
            g.append("locality: {");
            if (p.length == 1) {
                g.append("zone: ").append(yamlString(p[0]));
            } else {
                g.append("region: ").append(yamlString(p[0])).append(", zone: ").append(yamlString(p[1]));
                if (p.length == 3) {
                    g.append(", sub_zone: ").append(yamlString(p[2]));
                }
            }
            g.append("}\n    ");
        }
        if (zone != null && r.weighsLocalities() && r.localityWeights().weightOf(zone) > 0) {
            g.append("load_balancing_weight: ")
                    .append(r.localityWeights().weightOf(zone))
                    .append("\n    ");
        }
        int priority = r.priorities().getOrDefault(host, 0);
        if (priority != 0) {
            g.append("priority: ").append(priority).append("\n    ");
        }
        return g.append("lb_endpoints:\n").toString();
    }

    /** What the cluster does not hold, as comments: the route's retries, per-caller failover, what was read past. */
    static void comments(RoutingSpec r, StringBuilder y) {
        RetrySpec retry = r.retries();
        if (retry != null && retry.numRetries() > 0) {
            y.append("# Not written here: the route's retries (a route's retry_policy, not part of a Cluster), ")
                    .append(retry.origin())
                    .append(":\n#   retry_policy:\n#     retry_on: ")
                    .append(retry.retryOnText())
                    .append("\n#     num_retries: ")
                    .append(retry.numRetries())
                    .append('\n');
            if (retry.perTryTimeoutNanos() > 0) {
                y.append("#     per_try_timeout: ")
                        .append(Durations.format(retry.perTryTimeoutNanos()))
                        .append('\n');
            }
            if (!retry.retriableStatusCodes().isEmpty()) {
                y.append("#     retriable_status_codes: ")
                        .append(retry.retriableStatusCodes())
                        .append('\n');
            }
            if (retry.previousHosts()) {
                y.append("#     retry_host_predicate:\n#     - name: envoy.retry_host_predicates.previous_hosts\n")
                        .append("#       typed_config:\n#         \"@type\": type.googleapis.com/envoy.extensions.")
                        .append("retry.host.previous_hosts.v3.PreviousHostsPredicate\n")
                        .append("#     host_selection_retry_max_attempts: ")
                        .append(retry.hostSelectionMaxAttempts())
                        .append('\n');
            }
        } else if (retry != null) {
            y.append("# The route has no retries (").append(retry.origin()).append(").\n");
        }
        if (r.failsOverByZone()) {
            y.append("# Not written here: istiod's locality failover gives each calling sidecar its own priorities by "
                    + "its zone;\n# the endpoints below carry their localities and the priorities the scenario gives "
                    + "them, not one caller's view.\n");
        }
        for (String note : r.notModelled()) {
            y.append("# Read past by the lab: ").append(note.replace('\n', ' ')).append('\n');
        }
    }

    private static String yamlString(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
