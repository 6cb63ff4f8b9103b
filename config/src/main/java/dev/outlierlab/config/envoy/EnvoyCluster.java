package dev.outlierlab.config.envoy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * What the lab takes from one Envoy {@code Cluster}: its outlier-detection settings with Envoy's defaults
 * applied, {@code common_lb_config.healthy_panic_threshold} (default 50), the first active health check,
 * and the hosts of {@code load_assignment}. Settings Envoy would reject are kept as {@link #problems()}, so
 * that {@code check} can report them; {@link #requireValid()} turns the first into a user-facing error.
 *
 * @param line                 line of the cluster in its file
 * @param outlierDetectionLine line of its {@code outlier_detection} block, or the cluster's line when absent
 * @param discoveryType        Envoy's discovery type, e.g. STATIC, STRICT_DNS, EDS
 * @param outlierDetection     the effective settings; null when the cluster has no outlier_detection or
 *                             when they are invalid
 * @param hosts                host names ({@code hostname}, else {@code address:port}); empty when the file
 *                             does not say (EDS, ORIGINAL_DST)
 * @param problems             settings Envoy rejects, each naming its field
 * @param notes                parts of the cluster the lab reads but does not model, said once each
 * @param routing              its {@code lb_policy}, priorities, localities, overprovisioning factor and
 *                             {@code fail_traffic_on_panic} ({@link RoutingExtractor})
 */
public record EnvoyCluster(
        String name,
        String source,
        int line,
        int outlierDetectionLine,
        String discoveryType,
        boolean hasOutlierDetection,
        OutlierDetectionConfig outlierDetection,
        double panicThresholdPercent,
        HealthCheckSpec healthChecks,
        List<String> hosts,
        List<Problem> problems,
        List<String> notes,
        RoutingSpec routing) {

    /**
     * A setting Envoy rejects and the line it is on; or, with {@code envoyAccepts}, one Envoy accepts that the lab
     * cannot simulate (a duration under 1 ms, which Envoy truncates to a 0 ms timer).
     */
    public record Problem(InvalidConfigException error, int line, boolean envoyAccepts) {
        public Problem(InvalidConfigException error, int line) {
            this(error, line, false);
        }

        public String key() {
            return error.key();
        }
    }

    /** Envoy's default {@code healthy_panic_threshold}. */
    public static final double DEFAULT_PANIC_THRESHOLD = 50;

    public EnvoyCluster {
        hosts = List.copyOf(hosts);
        problems = List.copyOf(problems);
        notes = List.copyOf(notes);
    }

    /**
     * This cluster with the host count of a config dump's {@code EndpointsConfigDump} (an EDS cluster's hosts
     * as Envoy had them when the dump was taken), named host-0.. since the dump is only counted.
     */
    public EnvoyCluster withEndpointsFromDump(int count) {
        List<String> named = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            named.add("host-" + i);
        }
        List<String> more = new ArrayList<>(notes);
        more.removeIf(n -> n.startsWith("load_assignment is not where"));
        more.add(
                count + " endpoints from the dump's EndpointsConfigDump (the hosts Envoy had when the dump was taken)");
        return new EnvoyCluster(
                name,
                source,
                line,
                outlierDetectionLine,
                discoveryType,
                hasOutlierDetection,
                outlierDetection,
                panicThresholdPercent,
                healthChecks,
                named,
                problems,
                more,
                RoutingSpec.builder()
                        .lbPolicy(routing.lbPolicy())
                        .choiceCount(routing.choiceCount())
                        .activeRequestBias(routing.activeRequestBias())
                        .overprovisioningFactor(routing.overprovisioningFactor())
                        .failTrafficOnPanic(routing.failTrafficOnPanic())
                        .notModelled(routing.notModelled())
                        .build());
    }

    /** This cluster with one more setting Envoy rejects. */
    public EnvoyCluster withProblem(InvalidConfigException error, int atLine) {
        List<Problem> more = new ArrayList<>(problems);
        more.add(new Problem(error, atLine));
        return new EnvoyCluster(
                name,
                source,
                line,
                outlierDetectionLine,
                discoveryType,
                hasOutlierDetection,
                outlierDetection,
                panicThresholdPercent,
                healthChecks,
                hosts,
                more,
                notes,
                routing);
    }

    /** Throws the first setting Envoy would reject, as a message naming the file, line, cluster and field. */
    public EnvoyCluster requireValid() {
        if (!problems.isEmpty()) {
            Problem p = problems.get(0);
            throw new InputException(source + ":" + p.line() + ": cluster '" + name + "': "
                    + p.error().getMessage() + (p.envoyAccepts() ? "" : " (Envoy rejects this cluster)"));
        }
        if (!hasOutlierDetection) {
            throw new InputException(
                    source + ":" + line + ": cluster '" + name + "' has no outlier_detection, so Envoy "
                            + "does no passive outlier detection for it; add an outlier_detection block (even an empty one "
                            + "gives Envoy's defaults)");
        }
        return this;
    }

    /**
     * The base scenario with this cluster's settings: its outlier detection, panic threshold and health
     * checks, and its hosts (or {@code hostCount} hosts named host-0.. when given or when the file lists
     * none). The scenario's traffic and faults stay; a fault naming hosts the cluster does not have falls
     * back to the same number of hosts from the start of the list.
     */
    public Scenario toScenario(Scenario base, Integer hostCount) {
        requireValid();
        ClusterSpec cluster;
        if (hostCount != null) {
            cluster = ClusterSpec.ofCount(hostCount, panicThresholdPercent);
        } else if (!hosts.isEmpty()) {
            cluster = new ClusterSpec(hosts, panicThresholdPercent);
        } else {
            throw new InputException(source + ":" + line + ": cluster '" + name + "' is " + discoveryType
                    + " and lists no endpoints in load_assignment, so the number of hosts is not in the file; "
                    + "give it with --hosts N");
        }
        return ScenarioAdapter.withCluster(base, name, cluster, outlierDetection, healthChecks, routing, hosts);
    }
}
