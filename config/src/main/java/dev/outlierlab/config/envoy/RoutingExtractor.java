package dev.outlierlab.config.envoy;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.LocalityWeights;
import dev.outlierlab.sim.scenario.RoutingSpec;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.cluster.v3.LoadBalancingPolicy;
import io.envoyproxy.envoy.config.core.v3.Locality;
import io.envoyproxy.envoy.config.endpoint.v3.LocalityLbEndpoints;
import io.envoyproxy.envoy.extensions.load_balancing_policies.least_request.v3.LeastRequest;
import io.envoyproxy.envoy.extensions.load_balancing_policies.round_robin.v3.RoundRobin;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an Envoy {@code Cluster} says about routing, for {@link RoutingSpec}: {@code lb_policy} (or the first policy of
 * {@code load_balancing_policy} the lab knows), {@code least_request_lb_config}, {@code common_lb_config
 * .zone_aware_lb_config.fail_traffic_on_panic}, {@code load_assignment.policy.overprovisioning_factor}, and each
 * endpoint's {@code priority} and {@code locality}, and with {@code locality_weighted_lb_config} (in
 * {@code common_lb_config} or a policy's {@code locality_lb_config}) each locality's {@code load_balancing_weight}
 * ({@link LocalityWeights}). What Envoy does with a setting the lab reads past becomes one line of
 * {@link RoutingSpec#notModelled()}.
 */
final class RoutingExtractor {
    private static final String POLICY_PREFIX = "type.googleapis.com/envoy.extensions.load_balancing_policies.";

    private RoutingExtractor() {}

    /**
     * @param priorities each host's priority, in the order of {@code hosts}
     * @param localities each host's locality, in the same order
     */
    static RoutingSpec extract(Cluster c, List<String> hosts, List<Integer> priorities, List<Locality> localities) {
        List<String> notes = new ArrayList<>();
        LbPolicy policy = policy(c, notes);
        int choices = 2;
        double bias = 1.0;
        boolean localityWeighted = false;
        if (c.hasLoadBalancingPolicy() && c.getLoadBalancingPolicy().getPoliciesCount() > 0) {
            Typed t = typed(c.getLoadBalancingPolicy()
                    .getPolicies(0)
                    .getTypedExtensionConfig()
                    .getTypedConfig());
            if (t != null) {
                choices = t.choiceCount();
                bias = t.bias();
                localityWeighted = t.localityWeighted();
            }
        }
        if (c.hasLeastRequestLbConfig()) {
            Cluster.LeastRequestLbConfig lr = c.getLeastRequestLbConfig();
            if (lr.hasChoiceCount()) {
                choices = (int) Math.max(
                        2,
                        Math.min(100, Integer.toUnsignedLong(lr.getChoiceCount().getValue())));
            }
            if (lr.hasActiveRequestBias()) {
                bias = Math.max(0, Math.min(1000, lr.getActiveRequestBias().getDefaultValue()));
            }
            if (lr.hasSlowStartConfig()) {
                notes.add("least_request_lb_config.slow_start_config is not modelled: a returning host takes its full"
                        + " share at once");
            }
        }
        if (c.hasRoundRobinLbConfig() && c.getRoundRobinLbConfig().hasSlowStartConfig()) {
            notes.add("round_robin_lb_config.slow_start_config is not modelled: a returning host takes its full share"
                    + " at once");
        }
        Cluster.CommonLbConfig common = c.getCommonLbConfig();
        boolean failOnPanic =
                common.hasZoneAwareLbConfig() && common.getZoneAwareLbConfig().getFailTrafficOnPanic();
        localityWeighted = localityWeighted || common.hasLocalityWeightedLbConfig();
        int factor = RoutingSpec.DEFAULT_OVERPROVISIONING_FACTOR;
        if (c.getLoadAssignment().getPolicy().hasOverprovisioningFactor()) {
            long f = Integer.toUnsignedLong(c.getLoadAssignment()
                    .getPolicy()
                    .getOverprovisioningFactor()
                    .getValue());
            factor = (int) Math.max(1, Math.min(100_000, f));
        }
        Map<String, Integer> byHost = new LinkedHashMap<>();
        Map<String, String> zones = new LinkedHashMap<>();
        for (int i = 0; i < hosts.size(); i++) {
            if (priorities.get(i) != 0) {
                byHost.put(hosts.get(i), Math.min(RoutingSpec.MAX_PRIORITY, priorities.get(i)));
            }
            Locality l = localities.get(i);
            if (!l.getRegion().isEmpty()
                    || !l.getZone().isEmpty()
                    || !l.getSubZone().isEmpty()) {
                zones.put(hosts.get(i), zoneOf(l));
            }
        }
        return RoutingSpec.builder()
                .lbPolicy(policy)
                .choiceCount(choices)
                .activeRequestBias(bias)
                .overprovisioningFactor(factor)
                .failTrafficOnPanic(failOnPanic)
                .priorities(byHost)
                .zones(zones)
                .notModelled(notes)
                .localityWeights(localityWeighted && !zones.isEmpty() ? weights(c, notes) : LocalityWeights.NONE)
                .build();
    }

    /**
     * Each locality's {@code load_balancing_weight} from the endpoint groups ({@code LocalityLbEndpoints}), 0 where a
     * group sets none, as Envoy's {@code LocalityWeights} read it. Envoy keeps the weights per priority; a locality
     * given different weights at different priorities is said, and its first weight used.
     */
    private static LocalityWeights weights(Cluster c, List<String> notes) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (LocalityLbEndpoints group : c.getLoadAssignment().getEndpointsList()) {
            Locality l = group.getLocality();
            if (l.getRegion().isEmpty()
                    && l.getZone().isEmpty()
                    && l.getSubZone().isEmpty()) {
                continue;
            }
            String zone = zoneOf(l);
            int weight = group.hasLoadBalancingWeight()
                    ? (int) Math.min(
                            1_000_000,
                            Integer.toUnsignedLong(
                                    group.getLoadBalancingWeight().getValue()))
                    : 0;
            Integer was = out.putIfAbsent(zone, weight);
            if (was != null && was != weight) {
                notes.add("locality " + zone + " has load_balancing_weight " + was + " and " + weight + " in two "
                        + "endpoint groups: the lab uses " + was + " for it at every priority");
            }
        }
        return new LocalityWeights(true, out);
    }

    private static String zoneOf(Locality l) {
        return l.getRegion() + "/" + l.getZone() + (l.getSubZone().isEmpty() ? "" : "/" + l.getSubZone());
    }

    /** The typed settings of {@code load_balancing_policy}'s least-request or round-robin policy. */
    private record Typed(int choiceCount, double bias, boolean localityWeighted, boolean slowStart) {}

    private static Typed typed(Any any) {
        try {
            if (any.is(LeastRequest.class)) {
                LeastRequest lr = any.unpack(LeastRequest.class);
                return new Typed(
                        lr.hasChoiceCount()
                                ? (int) Math.max(
                                        2,
                                        Math.min(
                                                100,
                                                Integer.toUnsignedLong(
                                                        lr.getChoiceCount().getValue())))
                                : 2,
                        lr.hasActiveRequestBias()
                                ? Math.max(
                                        0,
                                        Math.min(1000, lr.getActiveRequestBias().getDefaultValue()))
                                : 1.0,
                        lr.getLocalityLbConfig().hasLocalityWeightedLbConfig(),
                        lr.hasSlowStartConfig());
            }
            if (any.is(RoundRobin.class)) {
                RoundRobin rr = any.unpack(RoundRobin.class);
                return new Typed(
                        2, 1.0, rr.getLocalityLbConfig().hasLocalityWeightedLbConfig(), rr.hasSlowStartConfig());
            }
        } catch (InvalidProtocolBufferException e) {
            return null;
        }
        return null;
    }

    private static LbPolicy policy(Cluster c, List<String> notes) {
        if (c.hasLoadBalancingPolicy()) {
            LoadBalancingPolicy lbp = c.getLoadBalancingPolicy();
            for (LoadBalancingPolicy.Policy p : lbp.getPoliciesList()) {
                String type = p.getTypedExtensionConfig().getTypedConfig().getTypeUrl();
                LbPolicy known = type.startsWith(POLICY_PREFIX + "round_robin.")
                        ? LbPolicy.ROUND_ROBIN
                        : type.startsWith(POLICY_PREFIX + "least_request.")
                                ? LbPolicy.LEAST_REQUEST
                                : type.startsWith(POLICY_PREFIX + "random.")
                                        ? LbPolicy.RANDOM
                                        : type.startsWith(POLICY_PREFIX + "ring_hash.")
                                                ? LbPolicy.RING_HASH
                                                : type.startsWith(POLICY_PREFIX + "maglev.") ? LbPolicy.MAGLEV : null;
                if (known != null) {
                    if (!known.modelled()) {
                        notes.add("load_balancing_policy " + known.name() + " is not modelled (hashing picks by the"
                                + " request's key): the lab routes round robin");
                    } else if (p != lbp.getPolicies(0)) {
                        notes.add("load_balancing_policy: the first policy Envoy knows is taken, " + known.name());
                    } else if (type.contains("least_request") || type.contains("round_robin")) {
                        Typed t = typed(p.getTypedExtensionConfig().getTypedConfig());
                        if (t == null) {
                            notes.add("load_balancing_policy's typed settings could not be read: Envoy's defaults "
                                    + "(choice_count 2) are used");
                        } else {
                            if (t.slowStart()) {
                                notes.add("load_balancing_policy's slow_start_config is not modelled: a returning "
                                        + "host takes its full share at once");
                            }
                        }
                    }
                    return known;
                }
            }
            notes.add("load_balancing_policy names no policy the lab knows: the lab routes round robin");
            return LbPolicy.ROUND_ROBIN;
        }
        LbPolicy p = switch (c.getLbPolicy()) {
            case LEAST_REQUEST -> LbPolicy.LEAST_REQUEST;
            case RANDOM -> LbPolicy.RANDOM;
            case RING_HASH -> LbPolicy.RING_HASH;
            case MAGLEV -> LbPolicy.MAGLEV;
            case CLUSTER_PROVIDED -> LbPolicy.CLUSTER_PROVIDED;
            case LOAD_BALANCING_POLICY_CONFIG -> LbPolicy.LOAD_BALANCING_POLICY_CONFIG;
            default -> LbPolicy.ROUND_ROBIN;
        };
        if (!p.modelled()) {
            notes.add("lb_policy " + p.name() + " is not modelled"
                    + (p == LbPolicy.RING_HASH || p == LbPolicy.MAGLEV
                            ? " (it hashes each request's key to a host)"
                            : "")
                    + ": the lab routes round robin");
        }
        return p;
    }
}
