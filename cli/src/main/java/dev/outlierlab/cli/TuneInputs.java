package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.Target;

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
        if (profiled.isGateway()) {
            throw new InputException(source(input) + ": a gateway-profile scenario; tune takes a gateway configuration "
                    + "with --from FILE --target gateway");
        }
        if (profiled.isGrpc()) {
            throw new InputException(source(input) + ": gRPC's settings (a profile: grpc scenario, --service-config or "
                    + "--grpc-implementation); tune takes a gRPC service config with --from FILE --target grpc");
        }
        Scenario s = profiled.envoy().scenario();
        Target target = input.clusterSource.istio != null ? Target.ISTIO : Target.ENVOY;
        Integer hosts = profiled.envoy().hostsGiven() ? s.cluster().size() : null;
        // the rate and callers only when the input gives them: a --istio or --envoy file alone says neither, and the
        // built-in scenario's 600 rps and one caller are not the user's (the log's, or --rps and --clients, are)
        boolean traffic = input.scenario.scenarioFile != null || input.scenario.example != null;
        Long rps = traffic || gives(input, "traffic.rps") ? s.traffic().rps() : null;
        Integer clients = traffic || gives(input, "traffic.clients") ? s.traffic().clients() : null;
        return new TuneInputs(new CurrentSettings(s.name(), source(input), target, s.outlierDetection(),
                s.cluster().panicThresholdPercent(), hosts, rps, s.envoyVersion(), RunProfile.ENVOY,
                s.healthChecks()), clients);
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
