package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How requests are routed between the callers and the hosts, beyond the lab model's one round robin: Envoy's
 * {@code lb_policy}, priority levels with the cluster's {@code overprovisioning_factor}, {@code
 * zone_aware_lb_config.fail_traffic_on_panic}, the hosts' and callers' zones with istiod's locality failover, and the
 * route's retry policy. {@link #NONE} is the lab model's routing (one priority, round robin, factor 140, no retries):
 * every run without routing keys is exactly as before.
 *
 * @param lbPolicy               the cluster's {@code lb_policy}
 * @param choiceCount            {@code least_request_lb_config.choice_count} (Envoy's default 2)
 * @param activeRequestBias      {@code least_request_lb_config.active_request_bias} (default 1.0)
 * @param overprovisioningFactor {@code load_assignment.policy.overprovisioning_factor} in percent (default 140)
 * @param failTrafficOnPanic     {@code common_lb_config.zone_aware_lb_config.fail_traffic_on_panic}
 * @param priorities             each host's priority by name (a host not named is at priority 0)
 * @param zones                  each host's zone by name ({@code region/zone/subzone} or a shorter prefix)
 * @param callerZones            the callers' zones: caller {@code c} is in {@code callerZones[c mod size]}
 * @param localityFailover       istiod's locality failover: each caller's hosts become priorities by how much of
 *                               its zone they share ({@code applyLocalityFailover}); it applies only where both
 *                               the hosts and the callers have zones ({@link #failsOverByZone()})
 * @param retries                the route's retry policy, or null for none
 * @param notModelled            what the configuration set that the lab reads past, one line each
 * @param localityWeights        locality-weighted balancing and each locality's weight ({@link LocalityWeights})
 */
public record RoutingSpec(
        LbPolicy lbPolicy,
        int choiceCount,
        double activeRequestBias,
        int overprovisioningFactor,
        boolean failTrafficOnPanic,
        Map<String, Integer> priorities,
        Map<String, String> zones,
        List<String> callerZones,
        boolean localityFailover,
        RetrySpec retries,
        List<String> notModelled,
        LocalityWeights localityWeights) {

    /** Envoy's {@code kDefaultOverProvisioningFactor}. */
    public static final int DEFAULT_OVERPROVISIONING_FACTOR = 140;
    /** The most priority levels accepted (Envoy's are a uint32; a handful is usual). */
    public static final int MAX_PRIORITY = 127;

    /** The lab model's routing: one priority, round robin, factor 140, no zones, no retries. */
    public static final RoutingSpec NONE = new RoutingSpec(
            LbPolicy.ROUND_ROBIN,
            2,
            1.0,
            DEFAULT_OVERPROVISIONING_FACTOR,
            false,
            Map.of(),
            Map.of(),
            List.of(),
            false,
            null,
            List.of(),
            LocalityWeights.NONE);

    public RoutingSpec {
        localityWeights = localityWeights == null ? LocalityWeights.NONE : localityWeights;
        priorities = Map.copyOf(priorities);
        zones = Map.copyOf(zones);
        callerZones = List.copyOf(callerZones);
        notModelled = List.copyOf(notModelled);
        if (choiceCount < 2 || choiceCount > 100) {
            throw new InvalidConfigException(
                    "cluster.choice_count",
                    Integer.toString(choiceCount),
                    "from 2 to 100 (Envoy's least_request_lb_config.choice_count)");
        }
        if (!(activeRequestBias >= 0 && activeRequestBias <= 1000)) {
            throw new InvalidConfigException(
                    "cluster.active_request_bias", Double.toString(activeRequestBias), "a number from 0 to 1000");
        }
        if (overprovisioningFactor < 1 || overprovisioningFactor > 100_000) {
            throw new InvalidConfigException(
                    "cluster.overprovisioning_factor",
                    Integer.toString(overprovisioningFactor),
                    "a whole percentage from 1 to 100000 (Envoy's default 140)");
        }
        for (Map.Entry<String, Integer> e : priorities.entrySet()) {
            if (e.getValue() < 0 || e.getValue() > MAX_PRIORITY) {
                throw new InvalidConfigException(
                        "cluster.priorities", Integer.toString(e.getValue()), "priorities from 0 to " + MAX_PRIORITY);
            }
        }
    }

    /** Whether anything differs from the lab model's routing. */
    public boolean isRouted() {
        return !equals(NONE);
    }

    /** Whether the per-request path must route this (anything but the lab model's one round robin). */
    public boolean needsRouter() {
        return lbPolicy.modelled() && lbPolicy != LbPolicy.ROUND_ROBIN
                || overprovisioningFactor != DEFAULT_OVERPROVISIONING_FACTOR
                || failTrafficOnPanic
                || priorities.values().stream().anyMatch(p -> p != 0)
                || failsOverByZone()
                || weighsLocalities()
                || retries != null && retries.numRetries() > 0;
    }

    /** Whether each caller's hosts are prioritized by its zone: locality failover with zones for hosts and callers. */
    public boolean failsOverByZone() {
        return localityFailover && !zones.isEmpty() && !callerZones.isEmpty();
    }

    /** Whether a priority's hosts are picked locality by locality, by weight: locality weights with zones. */
    public boolean weighsLocalities() {
        return localityWeights.enabled() && !zones.isEmpty();
    }

    /** This routing with locality-weighted balancing ({@code locality_weighted_lb_config}) and these weights. */
    public RoutingSpec withLocalityWeights(LocalityWeights weights) {
        return toBuilder().localityWeights(weights).build();
    }

    /** The zone of caller {@code c}, or null without caller zones. */
    public String callerZone(int c) {
        return callerZones.isEmpty() ? null : callerZones.get(c % callerZones.size());
    }

    /** Host names used here that the cluster does not have, checked by {@link Scenario}. */
    void checkHosts(Set<String> known, String hostsText) {
        for (String h : priorities.keySet()) {
            if (!known.contains(h)) {
                throw new InvalidConfigException(
                        "cluster.priorities", "\"" + h + "\"", "names of the cluster's hosts: " + hostsText);
            }
        }
        for (String h : zones.keySet()) {
            if (!known.contains(h)) {
                throw new InvalidConfigException(
                        "cluster.zones", "\"" + h + "\"", "names of the cluster's hosts: " + hostsText);
            }
        }
    }

    public RoutingSpec withRetries(RetrySpec r) {
        return toBuilder().retries(r).build();
    }

    public RoutingSpec withLocality(Map<String, String> hostZones, List<String> callers, boolean failover) {
        return toBuilder()
                .zones(hostZones)
                .callerZones(callers)
                .localityFailover(failover)
                .build();
    }

    public RoutingSpec withNotModelled(List<String> lines) {
        return toBuilder().notModelled(lines).build();
    }

    /** A builder starting from {@link #NONE}, the lab model's routing. */
    public static Builder builder() {
        return NONE.toBuilder();
    }

    /** A builder starting from this one. */
    public Builder toBuilder() {
        return new Builder()
                .lbPolicy(lbPolicy)
                .choiceCount(choiceCount)
                .activeRequestBias(activeRequestBias)
                .overprovisioningFactor(overprovisioningFactor)
                .failTrafficOnPanic(failTrafficOnPanic)
                .priorities(priorities)
                .zones(zones)
                .callerZones(callerZones)
                .localityFailover(localityFailover)
                .retries(retries)
                .notModelled(notModelled)
                .localityWeights(localityWeights);
    }

    /** Collects the fields by name instead of by position; {@link #build()} validates them as the constructor does. */
    public static final class Builder {
        private LbPolicy lbPolicy;
        private int choiceCount;
        private double activeRequestBias;
        private int overprovisioningFactor;
        private boolean failTrafficOnPanic;
        private Map<String, Integer> priorities;
        private Map<String, String> zones;
        private List<String> callerZones;
        private boolean localityFailover;
        private RetrySpec retries;
        private List<String> notModelled;
        private LocalityWeights localityWeights;

        private Builder() {}

        public Builder lbPolicy(LbPolicy value) {
            lbPolicy = value;
            return this;
        }

        public Builder choiceCount(int value) {
            choiceCount = value;
            return this;
        }

        public Builder activeRequestBias(double value) {
            activeRequestBias = value;
            return this;
        }

        public Builder overprovisioningFactor(int value) {
            overprovisioningFactor = value;
            return this;
        }

        public Builder failTrafficOnPanic(boolean value) {
            failTrafficOnPanic = value;
            return this;
        }

        public Builder priorities(Map<String, Integer> value) {
            priorities = value;
            return this;
        }

        public Builder zones(Map<String, String> value) {
            zones = value;
            return this;
        }

        public Builder callerZones(List<String> value) {
            callerZones = value;
            return this;
        }

        public Builder localityFailover(boolean value) {
            localityFailover = value;
            return this;
        }

        /** The route's retry policy (null: none). */
        public Builder retries(RetrySpec value) {
            retries = value;
            return this;
        }

        public Builder notModelled(List<String> value) {
            notModelled = value;
            return this;
        }

        public Builder localityWeights(LocalityWeights value) {
            localityWeights = value;
            return this;
        }

        public RoutingSpec build() {
            return new RoutingSpec(
                    lbPolicy,
                    choiceCount,
                    activeRequestBias,
                    overprovisioningFactor,
                    failTrafficOnPanic,
                    priorities,
                    zones,
                    callerZones,
                    localityFailover,
                    retries,
                    notModelled,
                    localityWeights);
        }
    }
}
