package dev.outlierlab.engine.envoy;

/**
 * How Envoy's load balancer splits one priority's traffic between its healthy and its degraded hosts, as
 * {@code LoadBalancerBase::recalculatePerPriorityState} and {@code distributeLoad} compute it
 * ({@code source/extensions/load_balancing_policies/common/load_balancer_impl.cc}) for a cluster of one priority:
 * healthy availability {@code H = min(100, 140 * healthy / hosts)} and degraded availability {@code D = min(100, 140 *
 * degraded / hosts)} in integer arithmetic, normalized total {@code N = min(100, H + D)}; the healthy hosts get
 * {@code min(100, H * 100 / N)} percent, the degraded ones {@code min(rest, D * 100 / N)}, and a rounding remainder
 * goes to the healthy hosts if there are any. So degraded hosts receive traffic only when the healthy ones, with the
 * overprovisioning factor, cannot take all of it: 71 % healthy and 29 % degraded gives 99 % and 1 %, as Envoy's
 * "Degraded endpoints" page tabulates. {@code choosePriority} then sends a request to the degraded hosts when its
 * hash modulo 100 is at or above the healthy percentage. Not used in panic, where every host is eligible.
 *
 * @param healthyPercent  the share of requests sent to healthy hosts
 * @param degradedPercent the share sent to degraded hosts
 */
public record PriorityLoad(int healthyPercent, int degradedPercent) {

    /** The split for {@code hosts} hosts of which {@code healthy} are healthy and {@code degraded} degraded. */
    public static PriorityLoad of(int healthy, int degraded, int hosts) {
        if (hosts <= 0) {
            return new PriorityLoad(100, 0);
        }
        long h = Math.min(100, PanicRule.OVERPROVISIONING_FACTOR * healthy / hosts);
        long d = Math.min(100, PanicRule.OVERPROVISIONING_FACTOR * degraded / hosts);
        long total = Math.min(100, h + d);
        if (total == 0) {
            // Envoy leaves the split to the panic computation; with panic disabled P=0's healthy hosts get 100
            return new PriorityLoad(100, 0);
        }
        long healthyLoad = Math.min(100, h * 100 / total);
        long degradedLoad = Math.min(100 - healthyLoad, d * 100 / total);
        long rest = 100 - healthyLoad - degradedLoad;
        if (rest != 0) {
            if (h > 0) {
                healthyLoad += rest;
            } else {
                degradedLoad += rest;
            }
        }
        return new PriorityLoad((int) healthyLoad, (int) degradedLoad);
    }
}
