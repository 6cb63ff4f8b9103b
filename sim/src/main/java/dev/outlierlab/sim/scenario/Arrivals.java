package dev.outlierlab.sim.scenario;

import java.util.Locale;

/**
 * How requests are spaced in time: {@code EVEN} is the lab model's rule (request {@code i} at
 * {@code floor(i * 1e9 / rps)}, docs/model.md); {@code POISSON} draws exponential gaps from the scenario's seed.
 */
public enum Arrivals {
    EVEN,
    POISSON;

    public String fileName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
