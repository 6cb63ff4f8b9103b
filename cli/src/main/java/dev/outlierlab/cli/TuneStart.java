package dev.outlierlab.cli;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.tune.CurrentSettings;

/**
 * A profile's facet in {@code tune} with run's inputs: the settings the search starts from. A profile without it
 * takes its settings with {@code --from FILE --target NAME} only.
 */
public interface TuneStart {
    /**
     * The current settings of the resolved scenario, with its hosts, rate and release.
     *
     * @param source what the settings were read from, for the report
     * @param istio  whether the cluster came from an Istio DestinationRule ({@code --istio})
     */
    CurrentSettings current(ScenarioReader.Profiled resolved, String source, boolean istio);
}
