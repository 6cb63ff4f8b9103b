package dev.outlierlab.sim.traffic;

import dev.outlierlab.engine.envoy.PanicRule;
import dev.outlierlab.engine.envoy.PriorityLoad;

/**
 * Round-robin over the hosts in rotation, with Envoy's panic mode (docs/model.md). A host is out of
 * rotation while ejected or failed by active health checking; the cluster is in panic as {@link PanicRule} says
 * (never while 140 % of the healthy share reaches 100 %, else while {@code 100.0 * healthy / hosts <
 * panic_threshold}), and then every host is eligible. Request {@code i} goes
 * to {@code eligible[i mod eligible.size]}. The eligible list is rebuilt only when a host changes state.
 *
 * <p>A host outlier detection marks degraded ({@code detect_degraded_hosts}, Envoy 1.38) stays in rotation at a lower
 * priority: out of panic, the healthy hosts take {@link PriorityLoad}'s healthy share and the degraded ones the rest,
 * request {@code i} going to the degraded hosts when {@code i mod 100} is at or above the healthy percentage (Envoy
 * draws a random hash there); each group is then walked round-robin. Degraded hosts count toward the panic rule as
 * Envoy's {@code isHostSetInPanic} counts them. While no host is degraded nothing changes.
 */
public final class LoadBalancer {
    private final boolean[] ejected;
    private final boolean[] healthCheckFailed;
    private final boolean[] degraded;
    private final PanicRule panicRule;
    private final int[] eligible;
    private final int[] degradedEligible;
    private int eligibleCount;
    private int degradedEligibleCount;
    /** The healthy hosts' share in percent while degraded hosts take the rest (100: they take nothing). */
    private int healthyPercent = 100;

    private long healthyPicks;
    private long degradedPicks;
    private int ejectedCount;
    private boolean panic;
    private boolean dirty = true;
    private long version;
    /** The last pick's request number, the eligible count then and its slot ({@code lastPick mod lastCount}). */
    private long lastPick = Long.MIN_VALUE;

    private int lastCount;
    private int lastSlot;

    public LoadBalancer(int hosts, double panicThresholdPercent) {
        this.ejected = new boolean[hosts];
        this.healthCheckFailed = new boolean[hosts];
        this.degraded = new boolean[hosts];
        this.panicRule = PanicRule.of(panicThresholdPercent);
        this.eligible = new int[hosts];
        this.degradedEligible = new int[hosts];
    }

    /** Marks or clears a host as degraded by outlier detection (Envoy's DEGRADED_OUTLIER_DETECTION flag). */
    public void setDegraded(int host, boolean value) {
        if (degraded[host] != value) {
            degraded[host] = value;
            dirty = true;
        }
    }

    /** Whether degraded hosts take a share of the traffic now (out of panic, healthy hosts not enough). */
    public boolean splitsByPriorityLoad() {
        if (dirty) {
            rebuild();
        }
        return healthyPercent < 100;
    }

    public boolean isDegraded(int host) {
        return degraded[host];
    }

    /** Hosts flagged degraded and otherwise in rotation (Envoy's {@code membership_degraded}). */
    public int degradedCount() {
        int n = 0;
        for (int h = 0; h < degraded.length; h++) {
            if (degraded[h] && !ejected[h] && !healthCheckFailed[h]) {
                n++;
            }
        }
        return n;
    }

    public void setEjected(int host, boolean value) {
        if (ejected[host] != value) {
            ejected[host] = value;
            ejectedCount += value ? 1 : -1;
            dirty = true;
        }
    }

    public void setHealthCheckFailed(int host, boolean value) {
        if (healthCheckFailed[host] != value) {
            healthCheckFailed[host] = value;
            dirty = true;
        }
    }

    /** Whether outlier detection has {@code host} out of rotation now. */
    public boolean isEjected(int host) {
        return ejected[host];
    }

    /** How many hosts the balancer has. */
    public int hostCount() {
        return ejected.length;
    }

    public boolean isHealthCheckFailed(int host) {
        return healthCheckFailed[host];
    }

    /** The host for request {@code i}, or -1 when no host is eligible (no healthy upstream). */
    public int pick(long i) {
        if (dirty) {
            rebuild();
        }
        if (healthyPercent < 100) {
            return pickByPriorityLoad(i);
        }
        if (eligibleCount == 0) {
            return -1;
        }
        // i mod eligibleCount, carried from the previous pick when requests come one after another and the list
        // is unchanged: a 64-bit remainder by a number not known in advance costs tens of cycles a request.
        int slot;
        if (i == lastPick + 1 && eligibleCount == lastCount) {
            slot = lastSlot + 1 == eligibleCount ? 0 : lastSlot + 1;
        } else {
            slot = (int) (i % eligibleCount);
        }
        lastPick = i;
        lastCount = eligibleCount;
        lastSlot = slot;
        return eligible[slot];
    }

    /** Out of panic with degraded hosts in rotation: the healthy or the degraded group, by {@link PriorityLoad}. */
    private int pickByPriorityLoad(long i) {
        lastPick = Long.MIN_VALUE;
        if (i % 100 < healthyPercent && eligibleCount > 0) {
            return eligible[(int) (healthyPicks++ % eligibleCount)];
        }
        return degradedEligible[(int) (degradedPicks++ % degradedEligibleCount)];
    }

    public boolean inPanic() {
        if (dirty) {
            rebuild();
        }
        return panic;
    }

    /** How many hosts are eligible now; {@link #pick pick(k)} for k below it is the k-th of them. */
    public int eligibleCount() {
        if (dirty) {
            rebuild();
        }
        return eligibleCount;
    }

    /** The {@code k}-th eligible host, for {@code k} below {@link #eligibleCount()}, without moving any pick state. */
    public int eligibleAt(int k) {
        if (dirty) {
            rebuild();
        }
        return eligible[k];
    }

    /** Changes whenever the eligible list may have changed (for pickers that keep their own schedule). */
    public long version() {
        if (dirty) {
            rebuild();
        }
        return version;
    }

    /** Hosts neither ejected, failed by active health checking nor degraded (Envoy's {@code membership_healthy}). */
    public int healthyCount() {
        int healthy = 0;
        for (int h = 0; h < ejected.length; h++) {
            if (!ejected[h] && !healthCheckFailed[h] && !degraded[h]) {
                healthy++;
            }
        }
        return healthy;
    }

    /** Hosts failed by active health checking now. */
    public int healthCheckFailedCount() {
        int failed = 0;
        for (boolean f : healthCheckFailed) {
            if (f) {
                failed++;
            }
        }
        return failed;
    }

    /** Hosts ejected by outlier detection now. */
    public int ejectedCount() {
        return ejectedCount;
    }

    private void rebuild() {
        int hosts = ejected.length;
        int healthy = 0;
        int inRotationDegraded = 0;
        for (int h = 0; h < hosts; h++) {
            if (!ejected[h] && !healthCheckFailed[h]) {
                if (degraded[h]) {
                    inRotationDegraded++;
                } else {
                    healthy++;
                }
            }
        }
        panic = panicRule.inPanic(healthy, inRotationDegraded, hosts);
        eligibleCount = 0;
        degradedEligibleCount = 0;
        for (int h = 0; h < hosts; h++) {
            boolean inRotation = !ejected[h] && !healthCheckFailed[h];
            if (panic || (inRotation && !degraded[h])) {
                eligible[eligibleCount++] = h;
            } else if (inRotation) {
                degradedEligible[degradedEligibleCount++] = h;
            }
        }
        healthyPercent = panic || degradedEligibleCount == 0
                ? 100
                : PriorityLoad.of(healthy, inRotationDegraded, hosts).healthyPercent();
        dirty = false;
        version++;
    }
}
