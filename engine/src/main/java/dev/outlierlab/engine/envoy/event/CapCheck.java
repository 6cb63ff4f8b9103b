package dev.outlierlab.engine.envoy.event;

/**
 * The ejection cap's arithmetic, as Envoy's {@code ejectHost} does it: the host may go iff
 * {@code 100.0 * (ejectedBefore + 1) / hosts <= min(maxEjectionPercent, 100)}, or
 * {@code always_eject_one_host} is set and nothing is ejected yet.
 */
public record CapCheck(
        int ejectedBefore,
        int hosts,
        double percentIfEjected,
        long maxEjectionPercent,
        boolean alwaysEjectOneHost,
        boolean allowed) {
}
