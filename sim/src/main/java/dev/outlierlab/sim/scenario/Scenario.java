package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything one run of the lab needs, immutable and validated: the lab model's scenario (spec section 2).
 * Host names in faults must name hosts of the cluster. Invalid values throw {@link InvalidConfigException}
 * with the scenario key (e.g. {@code faults[0].hosts}).
 *
 * @param healthChecks active health checking, or null when the cluster has none
 * @param envoyVersion the Envoy release whose rules apply where releases differ
 */
public record Scenario(
        String name,
        long durationNanos,
        long seed,
        ClusterSpec cluster,
        TrafficSpec traffic,
        List<FaultSpec> faults,
        OutlierDetectionConfig outlierDetection,
        HealthCheckSpec healthChecks,
        EnvoyVersion envoyVersion) {

    /** A scenario for the default Envoy release ({@link EnvoyVersion#DEFAULT}). */
    public Scenario(String name, long durationNanos, long seed, ClusterSpec cluster, TrafficSpec traffic,
            List<FaultSpec> faults, OutlierDetectionConfig outlierDetection, HealthCheckSpec healthChecks) {
        this(name, durationNanos, seed, cluster, traffic, faults, outlierDetection, healthChecks, EnvoyVersion.DEFAULT);
    }

    public Scenario {
        Objects.requireNonNull(envoyVersion, "envoyVersion");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(traffic, "traffic");
        Objects.requireNonNull(outlierDetection, "outlierDetection");
        faults = List.copyOf(faults);
        if (durationNanos <= 0 || durationNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException("duration", Durations.format(durationNanos),
                    "a duration greater than 0, such as 300s or 5m");
        }
        Set<String> known = new HashSet<>(cluster.hosts());
        for (int i = 0; i < faults.size(); i++) {
            for (String host : faults.get(i).hosts()) {
                if (!known.contains(host)) {
                    throw new InvalidConfigException("faults[" + i + "].hosts", "\"" + host + "\"",
                            "names of the cluster's hosts: " + abbreviate(cluster.hosts()));
                }
            }
        }
    }

    /** The lab's default scenario: the seed's opening case (six hosts, one failing 33 % from 30 s to 240 s). */
    public static Scenario defaults() {
        ClusterSpec cluster = ClusterSpec.ofCount(6, 50);
        return new Scenario("bookstore-search", 300 * Durations.SECOND, 1, cluster, new TrafficSpec(600),
                List.of(new FaultSpec(List.of("host-0"), 30 * Durations.SECOND, 240 * Durations.SECOND,
                        330_000, 503, null, false)),
                OutlierDetectionConfig.defaults(), null);
    }

    /** The number of requests this scenario sends: those with {@code floor(i * 1e9 / rps) < duration}. */
    public long requestCount() {
        return traffic.requestsBefore(durationNanos);
    }

    public Scenario withOutlierDetection(OutlierDetectionConfig config) {
        return new Scenario(name, durationNanos, seed, cluster, traffic, faults, config, healthChecks, envoyVersion);
    }

    public Scenario withEnvoyVersion(EnvoyVersion version) {
        return new Scenario(name, durationNanos, seed, cluster, traffic, faults, outlierDetection, healthChecks, version);
    }

    private static String abbreviate(List<String> hosts) {
        if (hosts.size() <= 6) {
            return String.join(", ", hosts);
        }
        return String.join(", ", hosts.subList(0, 3)) + ", ..., " + hosts.get(hosts.size() - 1);
    }
}
