package dev.outlierlab.engine.envoy.event;

import dev.outlierlab.engine.envoy.CapRule;

/**
 * The ejection cap's arithmetic, as Envoy's {@code ejectHost} does it in the release modelled ({@code rule}):
 * from 1.28 the host may go iff {@code 100.0 * (ejectedBefore + 1) / hosts <= min(maxEjectionPercent, 100)}, or
 * {@code always_eject_one_host} is set and nothing is ejected yet. {@code percentIfEjected} is the percentage the
 * rule compares (before 1.27, {@code 100.0 * ejectedBefore / hosts}).
 */
public record CapCheck(
        int ejectedBefore,
        int hosts,
        double percentIfEjected,
        long maxEjectionPercent,
        boolean alwaysEjectOneHost,
        boolean allowed,
        CapRule rule) {}
