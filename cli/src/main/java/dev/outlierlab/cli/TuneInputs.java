package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.tune.CurrentSettings;

/**
 * {@code tune}'s starting point from {@code run}'s inputs ({@link InputOptions}): the scenario, with an Envoy or
 * Istio file's cluster applied, read as the current settings, its hosts, rate and callers. An Istio DestinationRule
 * ({@code --istio}) makes the target Istio, as {@code --from} with the same file does.
 *
 * @param current the settings the search starts from, with the scenario's hosts, rps and Envoy release
 * @param clients the scenario's callers ({@code traffic.clients}, after {@code --clients})
 */
record TuneInputs(CurrentSettings current, int clients) {

    /** The current settings that {@code input} describes (see {@link InputOptions#describesCluster()}). */
    static TuneInputs of(InputOptions input) {
        ScenarioReader.Profiled profiled = input.resolve();
        TuneStart start = profiled.profile().facet(TuneStart.class).orElseThrow(() -> new InputException(source(input)
                + ": a profile: " + profiled.name() + " scenario; tune searches the settings of "
                + Profiles.namesWith(TuneStart.class)));
        return new TuneInputs(start.current(profiled, source(input), input.clusterSource.istio != null),
                profiled.envoy().scenario().traffic().clients());
    }

    /** What the settings were read from, for the report: the configuration file, the scenario, or the overrides. */
    private static String source(InputOptions input) {
        ClusterSourceOptions cluster = input.clusterSource;
        if (cluster.envoy != null) {
            return cluster.envoy.toString();
        }
        if (cluster.istio != null) {
            return cluster.istio.toString();
        }
        if (input.serviceConfig != null) {
            return input.serviceConfig.toString();
        }
        if (input.scenario.example != null) {
            return "example " + input.scenario.example;
        }
        return input.scenario.scenarioFile != null ? input.scenario.scenarioFile.toString() : "the --set overrides";
    }
}
