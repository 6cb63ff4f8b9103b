package dev.outlierlab.config.envoy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts a cluster read from real configuration (Envoy or Istio) into a scenario: the configuration decides
 * the hosts, panic threshold, outlier detection and health checks; the scenario keeps its duration, seed,
 * traffic and faults. Faults name hosts by position, so {@code host-0} of the scenario becomes the
 * configuration's first host.
 */
public final class ScenarioAdapter {
    private ScenarioAdapter() {
    }

    public static Scenario withCluster(Scenario base, String name, ClusterSpec cluster, OutlierDetectionConfig outlier,
                                       HealthCheckSpec healthChecks) {
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
        return new Scenario(name, base.durationNanos(), base.seed(), cluster, base.traffic(), faults, outlier,
                healthChecks, base.envoyVersion(), new LoadSpec(byPosition(base.load().capacityRps(), baseHosts, cluster),
                        base.load().overloadStatus(), base.load().overloadResult(),
                        byPosition(base.load().weights(), baseHosts, cluster), base.load().arrivals(),
                        base.load().steps()));
    }

    /** Per-host values of the scenario moved to the cluster's host at the same position (dropped past its end). */
    private static java.util.Map<String, Long> byPosition(java.util.Map<String, Long> values, List<String> baseHosts,
            ClusterSpec cluster) {
        java.util.Map<String, Long> out = new java.util.HashMap<>();
        for (int i = 0; i < baseHosts.size() && i < cluster.size(); i++) {
            Long v = values.get(baseHosts.get(i));
            if (v != null) {
                out.put(cluster.hosts().get(i), v);
            }
        }
        return out;
    }
}
