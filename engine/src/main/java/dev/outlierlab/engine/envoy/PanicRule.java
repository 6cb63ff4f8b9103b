package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.stage.RotationGuard;

/**
 * Envoy's panic rule for a cluster of one priority, as the load balancer decides it in
 * {@code LoadBalancerBase::recalculatePerPriorityState} and {@code recalculatePerPriorityPanic}
 * ({@code source/extensions/load_balancing_policies/common/load_balancer_impl.cc}). The priority's availability is
 * {@code min(100, 140 * healthy / hosts) + min(100, 140 * degraded / hosts)}, capped at 100, in unsigned integer
 * arithmetic (140 is the default {@code overprovisioning_factor}); while that is 100 the priority is never in panic.
 * Otherwise {@code isHostSetInPanic} holds it in panic while {@code 100.0 * healthy / hosts + 100.0 * degraded /
 * hosts} is below {@code healthy_panic_threshold}, which Envoy reads rounded to a whole percent
 * ({@code PROTOBUF_PERCENT_TO_ROUNDED_INTEGER_OR_DEFAULT}) and caps at 100. So a threshold above 71.4 % acts as
 * 71.4 %. The one place the lab decides panic: the simulator's balancer, the engine's rotation guard and
 * {@code check} all ask this class.
 */
public final class PanicRule {
    /** Envoy's default {@code overprovisioning_factor} ({@code kDefaultOverProvisioningFactor}). */
    public static final long OVERPROVISIONING_FACTOR = 140;

    private final long thresholdPercent;
    private final long factor;

    private PanicRule(long thresholdPercent, long factor) {
        this.thresholdPercent = thresholdPercent;
        this.factor = factor;
    }

    /** The rule for a {@code healthy_panic_threshold} in percent (0 disables panic). */
    public static PanicRule of(double panicThresholdPercent) {
        return of(panicThresholdPercent, OVERPROVISIONING_FACTOR);
    }

    /**
     * The rule for a {@code healthy_panic_threshold} and the cluster's {@code overprovisioning_factor} in percent
     * ({@code load_assignment.policy}, default 140).
     */
    public static PanicRule of(double panicThresholdPercent, long overprovisioningFactor) {
        return new PanicRule(Math.min(100, Math.round(panicThresholdPercent)), overprovisioningFactor);
    }

    /** The overprovisioning factor in percent this rule applies. */
    public long overprovisioningFactor() {
        return factor;
    }

    /** The threshold Envoy compares with: the configured one rounded to a whole percent, at most 100. */
    public long thresholdPercent() {
        return thresholdPercent;
    }

    /** Whether a cluster of {@code hosts} with {@code healthy} healthy hosts (none degraded) is in panic. */
    public boolean inPanic(int healthy, int hosts) {
        return inPanic(healthy, 0, hosts);
    }

    /** Whether a cluster of {@code hosts}, {@code healthy} of them healthy and {@code degraded} degraded, is in panic. */
    public boolean inPanic(int healthy, int degraded, int hosts) {
        if (hosts <= 0) {
            return thresholdPercent > 0;
        }
        if (availability(healthy, degraded, hosts, factor) == 100) {
            return false;
        }
        return 100.0 * healthy / hosts + 100.0 * degraded / hosts < thresholdPercent;
    }

    /**
     * The normalized total availability, {@code calculateNormalizedTotalAvailability} over one priority: healthy and
     * degraded availability, each {@code min(100, 140 * count / hosts)}, summed and capped at 100.
     */
    public static long availability(int healthy, int degraded, int hosts) {
        return availability(healthy, degraded, hosts, OVERPROVISIONING_FACTOR);
    }

    /** The same with another overprovisioning factor (percent). */
    public static long availability(int healthy, int degraded, int hosts, long factor) {
        if (hosts <= 0) {
            return 0;
        }
        long h = Math.min(100, factor * healthy / hosts);
        long d = Math.min(100, factor * degraded / hosts);
        return Math.min(100, h + d);
    }

    /** This rule as the request stage's guard: keep every candidate while the cluster is in panic. */
    public RotationGuard guard() {
        return this::inPanic;
    }

    /** The fewest healthy hosts out of {@code hosts} that keep the cluster out of panic (none degraded). */
    public int fewestHealthyWithoutPanic(int hosts) {
        for (int healthy = 0; healthy <= hosts; healthy++) {
            if (!inPanic(healthy, hosts)) {
                return healthy;
            }
        }
        return hosts;
    }

    @Override
    public String toString() {
        return "panic below " + thresholdPercent + " % while availability (" + factor
                + " % of the healthy share) is under 100";
    }
}
