package dev.outlierlab.config.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The routing keys in file form, written only where they differ from the lab model's routing, so that a scenario
 * without them is written exactly as before and {@link RoutingReader} reads the output back.
 */
final class RoutingWriter {
    private RoutingWriter() {}

    static void put(Scenario s, Map<String, Object> cluster, Map<String, Object> traffic) {
        RoutingSpec r = s.routing();
        RoutingSpec none = RoutingSpec.NONE;
        if (r.lbPolicy() != none.lbPolicy()) {
            cluster.put("lb_policy", r.lbPolicy().scenarioName());
        }
        if (r.choiceCount() != none.choiceCount()) {
            cluster.put("choice_count", (long) r.choiceCount());
        }
        if (r.activeRequestBias() != none.activeRequestBias()) {
            cluster.put("active_request_bias", r.activeRequestBias());
        }
        if (r.overprovisioningFactor() != none.overprovisioningFactor()) {
            cluster.put("overprovisioning_factor", (long) r.overprovisioningFactor());
        }
        if (r.failTrafficOnPanic()) {
            cluster.put("fail_traffic_on_panic", true);
        }
        List<String> hosts = s.cluster().hosts();
        if (!r.priorities().isEmpty()) {
            Map<String, Object> m = new LinkedHashMap<>();
            hosts.stream()
                    .filter(r.priorities()::containsKey)
                    .forEach(h -> m.put(h, (long) r.priorities().get(h)));
            cluster.put("priorities", m);
        }
        if (!r.zones().isEmpty()) {
            Map<String, Object> m = new LinkedHashMap<>();
            hosts.stream()
                    .filter(r.zones()::containsKey)
                    .forEach(h -> m.put(h, r.zones().get(h)));
            cluster.put("zones", m);
        }
        // without zones for both sides failover changes nothing, and the reader refuses it: written only with them
        if (r.localityFailover() && !r.zones().isEmpty() && !r.callerZones().isEmpty()) {
            cluster.put("locality_failover", true);
        }
        if (r.localityWeights().enabled() && !r.zones().isEmpty()) {
            Map<String, Object> m = new LinkedHashMap<>();
            new TreeMap<>(r.localityWeights().byZone()).forEach((z, w) -> m.put(z, (long) w));
            cluster.put("locality_weights", m);
        }
        if (!r.callerZones().isEmpty()) {
            traffic.put("caller_zones", new ArrayList<>(r.callerZones()));
        }
        Object retries = retries(r.retries());
        if (retries != null) {
            traffic.put("retries", retries);
        }
    }

    /** {@code traffic.retries} as a file writes it: "istio", "none", a mapping of Envoy's fields, or null. */
    static Object retries(RetrySpec retry) {
        if (RetrySpec.ISTIO_DEFAULT.equals(retry)) {
            return "istio";
        }
        if (retry != null && retry.numRetries() == 0 && retry.retryOn().isEmpty()) {
            return "none";
        }
        if (retry == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("retry_on", retry.retryOnText());
        m.put("num_retries", (long) retry.numRetries());
        if (!retry.retriableStatusCodes().isEmpty()) {
            List<Object> codes = new ArrayList<>();
            retry.retriableStatusCodes().forEach(c -> codes.add((long) c));
            m.put("retriable_status_codes", codes);
        }
        m.put("previous_hosts", retry.previousHosts());
        m.put("host_selection_retry_max_attempts", (long) retry.hostSelectionMaxAttempts());
        if (retry.perTryTimeoutNanos() > 0) {
            m.put("per_try_timeout", Durations.format(retry.perTryTimeoutNanos()));
        }
        if (retry.routeTimeoutNanos() != RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS) {
            m.put("route_timeout", Durations.format(retry.routeTimeoutNanos()));
        }
        return m;
    }
}
