package dev.outlierlab.tune;

import dev.outlierlab.config.scenario.ScenarioReader;

/**
 * A profile's facet in {@code tune --from FILE}: the settings the search starts from, out of a scenario of this
 * profile. A profile without it is refused with the names of those that have it.
 */
public interface TuneFrom {
    /** The current settings of {@code scenario}; {@code source} names the file. */
    CurrentSettings current(ScenarioReader.Profiled scenario, String source);
}
