package dev.outlierlab.sim.scenario;

import java.util.Locale;

/**
 * The cluster's {@code lb_policy} as far as the lab models it. Envoy's {@code ROUND_ROBIN} (its default), istiod's
 * default {@code LEAST_REQUEST}, and {@code RANDOM}; the hashing policies ({@code RING_HASH}, {@code MAGLEV}) and
 * the others are read, named and not modelled ({@link #modelled()} false): the lab then routes round robin and says
 * so.
 */
public enum LbPolicy {
    ROUND_ROBIN(true),
    LEAST_REQUEST(true),
    RANDOM(true),
    RING_HASH(false),
    MAGLEV(false),
    CLUSTER_PROVIDED(false),
    LOAD_BALANCING_POLICY_CONFIG(false);

    private final boolean modelled;

    LbPolicy(boolean modelled) {
        this.modelled = modelled;
    }

    /** Whether the lab routes by this policy; when false it routes round robin and reports that it does. */
    public boolean modelled() {
        return modelled;
    }

    /** The policy's name in scenario files, e.g. {@code least_request}. */
    public String scenarioName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy with this scenario or Envoy name (either case), or null. */
    public static LbPolicy byName(String name) {
        for (LbPolicy p : values()) {
            if (p.name().equalsIgnoreCase(name)) {
                return p;
            }
        }
        return null;
    }
}
