package dev.outlierlab.engine.envoy;

/**
 * The arithmetic of {@code max_ejection_percent} in a given Envoy release ({@link EnvoyVersion#capRule()}), with
 * {@code active} hosts ejected out of {@code hosts}.
 */
public enum CapRule {
    /** Up to 1.26: the host may go iff {@code 100 * active / hosts < max} (so the first always may, unless max is 0). */
    ACTIVE_BELOW_MAX,
    /** 1.27: iff {@code active == 0} or {@code 100 * (active + 1) / hosts <= max}. */
    FIRST_ALWAYS,
    /** From 1.28: iff {@code 100 * (active + 1) / hosts <= max}, or {@code always_eject_one_host} and {@code active == 0}. */
    ACTIVE_PLUS_ONE;

    /** The percentage the rule compares with the maximum. */
    public double percent(int active, int hosts) {
        return this == ACTIVE_BELOW_MAX ? 100.0 * active / hosts : 100.0 * (active + 1) / hosts;
    }

    /** Whether one more host may go. */
    public boolean allows(int active, int hosts, long maxEjectionPercent, boolean alwaysEjectOneHost) {
        long max = Math.min(maxEjectionPercent, 100);
        double percent = percent(active, hosts);
        return switch (this) {
            case ACTIVE_BELOW_MAX -> percent < max;
            case FIRST_ALWAYS -> active == 0 || percent <= max;
            case ACTIVE_PLUS_ONE -> percent <= max || (alwaysEjectOneHost && active == 0);
        };
    }
}
