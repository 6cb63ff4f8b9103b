package dev.outlierlab.sim.scenario;

import java.util.Locale;

/**
 * How a fault spreads its failures over the requests a host receives while the fault is active (docs/model.md).
 * {@link #EVEN} is the lab model's rule: failures as evenly spaced as the rate allows.
 * {@link #RANDOM} makes each request fail independently with the fault's rate. {@link #BURSTS} makes failures
 * come in runs of a given mean length, at the same average rate. Random and burst draws come from a seeded
 * stream of their own for each fault and host, described in {@code docs/fault-patterns.md}.
 */
public enum FaultPattern {
    EVEN,
    RANDOM,
    BURSTS;

    /** The name in scenario files, e.g. {@code random}. */
    public String scenarioName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The pattern with this scenario name, or null. */
    public static FaultPattern byScenarioName(String name) {
        for (FaultPattern p : values()) {
            if (p.scenarioName().equals(name)) {
                return p;
            }
        }
        return null;
    }
}
