package dev.outlierlab.config.istio;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The routing istiod gives a DestinationRule's cluster and its routes, as {@code applyLoadBalancer} and
 * {@code applyLocalityLoadBalancer} ({@code pilot/pkg/networking/core/cluster_traffic_policy.go}) and the retry
 * package ({@code pilot/pkg/networking/core/route/retry/retry.go}) set them:
 * <ul>
 *   <li>{@code loadBalancer.simple}: {@code LEAST_REQUEST} (and {@code LEAST_CONN}), {@code RANDOM},
 *       {@code ROUND_ROBIN}; unset, istiod's {@code defaultLBAlgorithm()}, {@code LEAST_REQUEST};
 *       {@code consistentHash} gives {@code RING_HASH} or {@code MAGLEV} ({@code ApplyRingHashLoadBalancer}),
 *       which the lab does not model.</li>
 *   <li>Locality failover: with {@code outlierDetection} set and locality load balancing on (the mesh's
 *       {@code localityLbSetting.enabled} is true by default; a rule's {@code localityLbSetting.enabled: false} turns
 *       it off), {@code ApplyLocalityLoadBalancer} gives each caller its endpoints' priorities by locality
 *       ({@code applyLocalityFailover}). A {@code distribute} setting gives locality weights instead, and
 *       {@code failover} and {@code failoverPriority} refine the priorities; those three are read and not
 *       modelled.</li>
 *   <li>Retries: every HTTP route gets istiod's {@code DefaultPolicy} ({@link RetrySpec#ISTIO_DEFAULT}) unless a
 *       VirtualService's {@code retries} says otherwise ({@code ConvertPolicy}: {@code attempts: 0} turns retries
 *       off; {@code retryOn} replaces the conditions, numbers in it becoming retriable status codes;
 *       {@code retryIgnorePreviousHosts} sets the previous-hosts predicate); with {@code consistentHash} the default
 *       has no previous-hosts predicate ({@code DefaultConsistentHashPolicy}).</li>
 * </ul>
 */
public final class IstioRouting {
    private IstioRouting() {}

    /**
     * The routing of a cluster whose traffic policy is {@code policy} (null when the rule has none).
     *
     * @param outlierDetection whether istiod sends this cluster an {@code outlier_detection}
     * @param retries          the route's retry policy, from a VirtualService; null for istiod's default
     */
    public static RoutingSpec of(
            Map<String, Located> policy, boolean outlierDetection, RetrySpec retries, boolean retriesGiven) {
        List<String> notes = new ArrayList<>();
        Map<String, Located> lb = child(policy, "loadBalancer");
        LbPolicy lbPolicy = LbPolicy.LEAST_REQUEST;
        boolean hashed = false;
        if (lb != null) {
            Located simple = lb.get("simple");
            String name = simple == null ? null : String.valueOf(simple.value());
            if ("ROUND_ROBIN".equals(name)) {
                lbPolicy = LbPolicy.ROUND_ROBIN;
            } else if ("RANDOM".equals(name)) {
                lbPolicy = LbPolicy.RANDOM;
            } else if ("PASSTHROUGH".equals(name)) {
                lbPolicy = LbPolicy.CLUSTER_PROVIDED;
                notes.add("loadBalancer.simple PASSTHROUGH (an ORIGINAL_DST cluster) is not modelled: the lab routes"
                        + " round robin");
            }
            Map<String, Located> hash = child(lb, "consistentHash");
            if (hash != null) {
                hashed = true;
                lbPolicy = child(hash, "maglev") != null ? LbPolicy.MAGLEV : LbPolicy.RING_HASH;
                notes.add("loadBalancer.consistentHash (" + lbPolicy.name() + ", each request's key hashed to a host) "
                        + "is not modelled: the lab routes round robin");
            }
            if (lb.get("warmup") != null || lb.get("warmupDurationSecs") != null) {
                notes.add("loadBalancer.warmup (slow start) is not modelled: a returning host takes its full share at "
                        + "once");
            }
        }
        boolean failover = outlierDetection;
        Map<String, Located> locality = lb == null ? null : child(lb, "localityLbSetting");
        if (locality != null) {
            Located enabled = locality.get("enabled");
            if (enabled != null && Boolean.FALSE.equals(enabled.value())) {
                failover = false;
            } else if (locality.get("distribute") != null) {
                failover = false;
                notes.add("localityLbSetting.distribute (locality weights) is not modelled: the lab spreads a "
                        + "priority's traffic over its hosts evenly");
            } else if (locality.get("failover") != null || locality.get("failoverPriority") != null) {
                notes.add("localityLbSetting.failover and failoverPriority are not modelled: the lab gives each "
                        + "caller's endpoints istiod's default priorities by region, zone and subzone");
            }
        }
        RetrySpec retry = retriesGiven
                ? retries
                : hashed
                        ? new RetrySpec(
                                RetrySpec.ISTIO_DEFAULT.retryOn(),
                                2,
                                List.of(503),
                                false,
                                5,
                                "istiod's default for consistent hashing",
                                0,
                                0)
                        : RetrySpec.ISTIO_DEFAULT;
        return RoutingSpec.builder()
                .lbPolicy(lbPolicy)
                .localityFailover(failover)
                .retries(retry)
                .notModelled(notes)
                .build();
    }

    /**
     * A VirtualService route's {@code retries} as istiod's {@code ConvertPolicy} turns it into Envoy's: null for
     * {@code attempts: 0} (no retries); {@code perTryTimeout} becomes {@code per_try_timeout}; the route's timeout is
     * none, as istiod writes it unless the route sets {@code timeout} ({@link #routeTimeout}).
     */
    public static RetrySpec convert(Map<String, Located> retries, String origin) {
        long attempts =
                retries.get("attempts") != null && retries.get("attempts").value() instanceof Long l ? l : 0;
        if (attempts <= 0) {
            return null;
        }
        Set<String> on = new LinkedHashSet<>(RetrySpec.ISTIO_DEFAULT.retryOn());
        List<Integer> codes = new ArrayList<>(RetrySpec.ISTIO_DEFAULT.retriableStatusCodes());
        Located retryOn = retries.get("retryOn");
        if (retryOn != null && retryOn.value() instanceof String s && !s.isBlank()) {
            on.clear();
            codes.clear();
            for (String part : s.split(",")) {
                String p = part.strip();
                if (p.matches("[1-5][0-9][0-9]")) {
                    codes.add(Integer.parseInt(p));
                } else if (!p.isEmpty() && RetrySpec.KNOWN.contains(p)) {
                    on.add(p);
                }
            }
            if (!codes.isEmpty()) {
                on.add("retriable-status-codes");
            }
        }
        boolean previous = true;
        Located ignore = retries.get("retryIgnorePreviousHosts");
        if (ignore != null && ignore.value() instanceof Boolean b) {
            previous = b;
        }
        long perTry = duration(retries.get("perTryTimeout"), origin + ".perTryTimeout");
        return new RetrySpec(
                on,
                (int) Math.min(RetrySpec.MAX_RETRIES, attempts),
                codes,
                previous,
                5,
                origin,
                Math.max(0, perTry),
                0);
    }

    /**
     * A VirtualService HTTP route's {@code timeout}, or 0 when it sets none: istiod's {@code setTimeout}
     * ({@code pilot/pkg/networking/core/route/route.go}) writes {@code Notimeout}, 0 s, which disables Envoy's 15 s
     * default.
     */
    public static long routeTimeout(Located timeout, String origin) {
        return Math.max(0, duration(timeout, origin));
    }

    /** A duration as Istio's API reads it (Go's form, at least 1 ms), -1 when absent. */
    private static long duration(Located node, String key) {
        if (node == null || node.value() == null) {
            return -1;
        }
        long nanos = node.value() instanceof String s ? GoDuration.parse(s.strip()) : -1;
        if (nanos < Durations.MILLISECOND || nanos > Durations.MAX_NANOS) {
            throw new InputException(node.origin() + ": " + key + ": " + Wording.describe(node.value())
                    + " is not allowed; expected a duration such as 2s or 250ms, at least 1ms");
        }
        return nanos;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Located> child(Map<String, Located> map, String key) {
        if (map == null) {
            return null;
        }
        Located node = map.get(key);
        return node != null && node.value() instanceof Map<?, ?> m ? (Map<String, Located>) m : null;
    }
}
