package dev.outlierlab.config.envoy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts a cluster read from real configuration (Envoy or Istio) into a scenario: the configuration decides
 * the hosts, panic threshold, outlier detection and health checks; the scenario keeps its duration, seed,
 * traffic and faults. Faults name hosts by position, so {@code host-0} of the scenario becomes the
 * configuration's first host.
 */
public final class ScenarioAdapter {
    private ScenarioAdapter() {}

    public static Scenario withCluster(
            Scenario base,
            String name,
            ClusterSpec cluster,
            OutlierDetectionConfig outlier,
            HealthCheckSpec healthChecks) {
        return withCluster(base, name, cluster, outlier, healthChecks, RoutingSpec.NONE, List.of());
    }

    /**
     * The same, with the configuration's routing: its balancer policy, overprovisioning factor,
     * {@code fail_traffic_on_panic}, and its hosts' priorities and zones (by name in {@code configHosts}, moved to
     * the cluster's host at the same position); the scenario keeps its callers' zones, its hosts' zones where the
     * configuration names none, and its retry policy where it has one. istiod's locality failover
     * ({@code routing.localityFailover()}) applies only with zones for both hosts and callers; without them the
     * routing says so.
     */
    public static Scenario withCluster(
            Scenario base,
            String name,
            ClusterSpec cluster,
            OutlierDetectionConfig outlier,
            HealthCheckSpec healthChecks,
            RoutingSpec routing,
            List<String> configHosts) {
        List<String> baseHosts = base.cluster().hosts();
        List<FaultSpec> faults = new ArrayList<>();
        for (int i = 0; i < base.faults().size(); i++) {
            FaultSpec f = base.faults().get(i);
            List<String> hosts = new ArrayList<>();
            for (String h : f.hosts()) {
                int index = baseHosts.indexOf(h);
                if (index >= cluster.size()) {
                    throw new InputException("faults[" + i + "].hosts: " + h + " is host number " + (index + 1)
                            + " of the scenario, but cluster '" + name + "' has only " + cluster.size() + " hosts; "
                            + "lower the fault's hosts or give more hosts");
                }
                hosts.add(cluster.hosts().get(index));
            }
            faults.add(f.withHosts(hosts));
        }
        return Scenario.builder()
                .name(name)
                .durationNanos(base.durationNanos())
                .seed(base.seed())
                .cluster(cluster)
                .traffic(base.traffic())
                .faults(faults)
                .outlierDetection(outlier)
                .healthChecks(healthChecks)
                .envoyVersion(base.envoyVersion())
                .load(new LoadSpec(
                        byPosition(base.load().capacityRps(), baseHosts, cluster),
                        base.load().overloadStatus(),
                        base.load().overloadResult(),
                        byPosition(base.load().weights(), baseHosts, cluster),
                        base.load().arrivals(),
                        base.load().steps()))
                .routing(routing(base.routing(), baseHosts, routing, configHosts, cluster))
                .build();
    }

    private static RoutingSpec routing(
            RoutingSpec scenario,
            List<String> baseHosts,
            RoutingSpec config,
            List<String> configHosts,
            ClusterSpec cluster) {
        Map<String, Integer> priorities = byPosition(config.priorities(), configHosts, cluster);
        if (priorities.isEmpty()) {
            priorities = byPosition(scenario.priorities(), baseHosts, cluster);
        }
        Map<String, String> zones = byPosition(config.zones(), configHosts, cluster);
        if (zones.isEmpty()) {
            zones = byPosition(scenario.zones(), baseHosts, cluster);
        }
        List<String> notes = new ArrayList<>(config.notModelled());
        boolean failover = config.localityFailover() || scenario.localityFailover();
        if (config.localityFailover()
                && (zones.isEmpty() || scenario.callerZones().isEmpty())) {
            notes.add("istiod's locality failover applies to this rule (it has outlierDetection and the mesh's "
                    + "localityLbSetting is on by default), but the scenario gives no zones: every endpoint is in "
                    + "one locality; give cluster.zones and traffic.caller_zones to see each caller's zone first");
        }
        return RoutingSpec.builder()
                .lbPolicy(config.isRouted() ? config.lbPolicy() : scenario.lbPolicy())
                .choiceCount(config.isRouted() ? config.choiceCount() : scenario.choiceCount())
                .activeRequestBias(config.isRouted() ? config.activeRequestBias() : scenario.activeRequestBias())
                .overprovisioningFactor(
                        config.overprovisioningFactor() != RoutingSpec.DEFAULT_OVERPROVISIONING_FACTOR
                                ? config.overprovisioningFactor()
                                : scenario.overprovisioningFactor())
                .failTrafficOnPanic(config.failTrafficOnPanic() || scenario.failTrafficOnPanic())
                .priorities(priorities)
                .zones(zones)
                .callerZones(scenario.callerZones())
                .localityFailover(failover)
                .retries(scenario.retries() != null ? scenario.retries() : config.retries())
                .notModelled(notes)
                .localityWeights(
                        config.localityWeights().enabled() ? config.localityWeights() : scenario.localityWeights())
                .build();
    }

    /** Per-host values keyed by {@code from}'s names moved to the cluster's host at the same position. */
    private static <V> Map<String, V> byPosition(
            Map<String, V> values, List<String> from, ClusterSpec cluster, boolean generic) {
        Map<String, V> out = new HashMap<>();
        for (int i = 0; i < from.size() && i < cluster.size(); i++) {
            V v = values.get(from.get(i));
            if (v != null) {
                out.put(cluster.hosts().get(i), v);
            }
        }
        return out;
    }

    private static <V> Map<String, V> byPosition(Map<String, V> values, List<String> from, ClusterSpec cluster) {
        if (values.isEmpty()) {
            return Map.of();
        }
        if (from.isEmpty()) {
            return values.keySet().stream().allMatch(cluster.hosts()::contains) ? values : Map.of();
        }
        return byPosition(values, from, cluster, true);
    }
}
