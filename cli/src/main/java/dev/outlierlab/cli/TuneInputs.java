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
 * @param clients the scenario's callers ({@code traffic.clients}, after {@code --clients}), or null when nothing
 *                given says (a configuration file alone: the default scenario's one caller is not the user's)
 */
record TuneInputs(CurrentSettings current, Integer clients) {

    /** The current settings that {@code input} describes (see {@link InputOptions#describesCluster()}). */
    static TuneInputs of(InputOptions input) {
        ScenarioReader.Profiled profiled = input.resolve();
        TuneStart start = profiled.profile()
                .facet(TuneStart.class)
                .orElseThrow(() -> new InputException(source(input)
                        + ": a profile: " + profiled.name() + " scenario; tune searches the settings of "
                        + Profiles.namesWith(TuneStart.class)));
        CurrentSettings c = start.current(profiled, source(input), input.clusterSource.istio != null);
        // the rate and callers only when the input gives them: a --istio or --envoy file alone says neither, and the
        // built-in scenario's 600 rps and one caller are not the user's (the log's, or --rps and --clients, are)
        boolean traffic = input.scenario.scenarioFile != null || input.scenario.example != null;
        Long rps = traffic || gives(input, "traffic.rps") ? c.rps() : null;
        Integer clients = traffic || gives(input, "traffic.clients")
                ? profiled.envoy().scenario().traffic().clients()
                : null;
        return new TuneInputs(
                new CurrentSettings(
                        c.name(),
                        c.source(),
                        c.target(),
                        c.config(),
                        c.panicThresholdPercent(),
                        c.hosts(),
                        rps,
                        c.version(),
                        c.profile(),
                        c.healthChecks()),
                clients);
    }

    /** Whether an override (--set, --rps, --clients) sets {@code key}. */
    private static boolean gives(InputOptions input, String key) {
        return input.allSets().stream().anyMatch(set -> set.startsWith(key + "="));
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
