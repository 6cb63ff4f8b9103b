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
 * Everything one run of the lab needs, immutable and validated: the lab model's scenario (docs/model.md).
 * Host names in faults must name hosts of the cluster. Invalid values throw {@link InvalidConfigException}
 * with the scenario key (e.g. {@code faults[0].hosts}).
 *
 * @param healthChecks active health checking, or null when the cluster has none
 * @param envoyVersion the Envoy release whose rules apply where releases differ
 * @param load         capacity, weights, arrivals and rate steps ({@link LoadSpec#NONE}: the lab model's traffic)
 * @param routing      balancer policy, priorities, zones and retries ({@link RoutingSpec#NONE}: the lab model's one
 *                     round robin)
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
        EnvoyVersion envoyVersion,
        LoadSpec load,
        RoutingSpec routing) {

    /** The most callers x hosts a scenario may have: each caller keeps a detector's state for every host. */
    public static final long MAX_CALLER_HOSTS = 2_000_000;

    public Scenario {
        Objects.requireNonNull(envoyVersion, "envoyVersion");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(traffic, "traffic");
        Objects.requireNonNull(outlierDetection, "outlierDetection");
        faults = List.copyOf(faults);
        load = load == null ? LoadSpec.NONE : load;
        routing = routing == null ? RoutingSpec.NONE : routing;
        if (durationNanos <= 0 || durationNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "duration", Durations.format(durationNanos), "a duration greater than 0, such as 300s or 5m");
        }
        if ((long) traffic.clients() * cluster.size() > MAX_CALLER_HOSTS) {
            throw new InvalidConfigException(
                    "traffic.clients",
                    Integer.toString(traffic.clients()),
                    "at most " + MAX_CALLER_HOSTS / cluster.size() + " callers with " + cluster.size()
                            + " hosts (every caller keeps its own state for every host: at most " + MAX_CALLER_HOSTS
                            + " callers x hosts)");
        }
        Set<String> known = new HashSet<>(cluster.hosts());
        for (int i = 0; i < faults.size(); i++) {
            for (String host : faults.get(i).hosts()) {
                if (!known.contains(host)) {
                    throw new InvalidConfigException(
                            "faults[" + i + "].hosts",
                            "\"" + host + "\"",
                            "names of the cluster's hosts: " + abbreviate(cluster.hosts()));
                }
            }
        }
        load.checkHosts(known, abbreviate(cluster.hosts()));
        routing.checkHosts(known, abbreviate(cluster.hosts()));
        if (routing.needsRouter() && !load.weights().isEmpty()) {
            throw new InvalidConfigException(
                    "cluster.weights",
                    load.weights().size() + " weights",
                    "no load-balancing weights with priorities, zones, another lb_policy or retries (the lab does not"
                            + " model Envoy's weighted picks across priorities)");
        }
        envoyVersion.checkFieldsExist(outlierDetection);
    }

    /** The lab's default scenario: the classic opening case (six hosts, one failing 33 % from 30 s to 240 s). */
    public static Scenario defaults() {
        ClusterSpec cluster = ClusterSpec.ofCount(6, 50);
        return Scenario.builder()
                .name("bookstore-search")
                .durationNanos(300 * Durations.SECOND)
                .seed(1)
                .cluster(cluster)
                .traffic(new TrafficSpec(600))
                .faults(List.of(FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(30 * Durations.SECOND, 240 * Durations.SECOND)
                        .errorRatePpm(330_000)
                        .build()))
                .build();
    }

    /**
     * The number of requests this scenario sends: those with {@code floor(i * 1e9 / rps) < duration}; with rate
     * steps, the sum over the steps; with Poisson arrivals, the expected number.
     */
    public long requestCount() {
        if (load.steps().isEmpty()) {
            return traffic.requestsBefore(durationNanos);
        }
        long total = 0;
        long start = 0;
        long rps = traffic.rps();
        for (RateStep step : load.steps()) {
            long end = Math.min(step.atNanos(), durationNanos);
            if (end > start && rps > 0) {
                total += new TrafficSpec(rps).requestsBefore(end - start);
            }
            start = Math.max(start, end);
            rps = step.rps();
        }
        if (durationNanos > start && rps > 0) {
            total += new TrafficSpec(rps).requestsBefore(durationNanos - start);
        }
        return total;
    }

    public Scenario withOutlierDetection(OutlierDetectionConfig config) {
        return toBuilder().outlierDetection(config).build();
    }

    /** The same scenario with the same rate from {@code clients} callers. */
    public Scenario withClients(int clients) {
        return toBuilder().traffic(traffic.withClients(clients)).build();
    }

    /** The same scenario routed by {@code r}. */
    public Scenario withRouting(RoutingSpec r) {
        return toBuilder().routing(r).build();
    }

    public Scenario withEnvoyVersion(EnvoyVersion version) {
        return toBuilder().envoyVersion(version).build();
    }

    /**
     * A builder with no faults, Envoy's outlier detection defaults, no active health checks, the default Envoy
     * release ({@link EnvoyVersion#DEFAULT}), the lab model's traffic ({@link LoadSpec#NONE}) and routing
     * ({@link RoutingSpec#NONE}). The name, duration, seed, cluster and traffic have no default.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this scenario. */
    public Builder toBuilder() {
        return new Builder()
                .name(name)
                .durationNanos(durationNanos)
                .seed(seed)
                .cluster(cluster)
                .traffic(traffic)
                .faults(faults)
                .outlierDetection(outlierDetection)
                .healthChecks(healthChecks)
                .envoyVersion(envoyVersion)
                .load(load)
                .routing(routing);
    }

    /** Collects a scenario by name instead of by position; {@link #build()} validates it as the constructor does. */
    public static final class Builder {
        private String name;
        private long durationNanos;
        private long seed;
        private ClusterSpec cluster;
        private TrafficSpec traffic;
        private List<FaultSpec> faults = List.of();
        private OutlierDetectionConfig outlierDetection = OutlierDetectionConfig.defaults();
        private HealthCheckSpec healthChecks;
        private EnvoyVersion envoyVersion = EnvoyVersion.DEFAULT;
        private LoadSpec load = LoadSpec.NONE;
        private RoutingSpec routing = RoutingSpec.NONE;

        private Builder() {}

        public Builder name(String value) {
            name = value;
            return this;
        }

        public Builder durationNanos(long value) {
            durationNanos = value;
            return this;
        }

        public Builder seed(long value) {
            seed = value;
            return this;
        }

        public Builder cluster(ClusterSpec value) {
            cluster = value;
            return this;
        }

        public Builder traffic(TrafficSpec value) {
            traffic = value;
            return this;
        }

        public Builder faults(List<FaultSpec> value) {
            faults = value;
            return this;
        }

        public Builder outlierDetection(OutlierDetectionConfig value) {
            outlierDetection = value;
            return this;
        }

        /** Active health checking (null: none). */
        public Builder healthChecks(HealthCheckSpec value) {
            healthChecks = value;
            return this;
        }

        public Builder envoyVersion(EnvoyVersion value) {
            envoyVersion = value;
            return this;
        }

        public Builder load(LoadSpec value) {
            load = value;
            return this;
        }

        public Builder routing(RoutingSpec value) {
            routing = value;
            return this;
        }

        public Scenario build() {
            return new Scenario(
                    name,
                    durationNanos,
                    seed,
                    cluster,
                    traffic,
                    faults,
                    outlierDetection,
                    healthChecks,
                    envoyVersion,
                    load,
                    routing);
        }
    }

    private static String abbreviate(List<String> hosts) {
        if (hosts.size() <= 6) {
            return String.join(", ", hosts);
        }
        return String.join(", ", hosts.subList(0, 3)) + ", ..., " + hosts.get(hosts.size() - 1);
    }
}
