package dev.outlierlab.engine.envoy.event;

/**
 * The {@code enforcing_*} decision: with a percentage strictly between 0 and 100 a draw is taken and the
 * detection ejects iff {@code draw mod 100 < percent}; at 0 and 100 no draw is taken (as Envoy's runtime
 * {@code featureEnabled} does), and {@code drawMod100} is -1.
 */
public record Enforcement(long enforcingPercent, long drawMod100, boolean enforced) {}
