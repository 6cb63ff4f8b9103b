package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.tune.CurrentSettings;
import dev.outlierlab.tune.Target;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

    /** The settings the search starts from: run's inputs, the file of --from, or the target's defaults. */
    record Start(CurrentSettings read, CurrentSettings current, String fromText, List<String> notes, Integer clients) {}

    /**
     * Where the search starts: {@code --from}'s file, run's inputs, or the defaults of {@code target} (or Envoy's);
     * with a log ({@code forLog}), a DestinationRule's hosts come from the log; {@code part} names the part of
     * {@code --from}'s file to tune ({@code --upstream}), or null for its only one.
     */
    static Start start(InputOptions input, Path from, String part, String target, boolean forLog) {
        if (part != null && from == null) {
            throw new InputException(
                    "--upstream " + Wording.printable(part.length() > 40 ? part.substring(0, 40) + "..." : part)
                            + ": names an nginx upstream or a HAProxy backend of --from's file; give --from FILE too");
        }
        if (from != null && input.describesCluster()) {
            throw new InputException("--from " + from + " and run's inputs (a scenario, --example, --set, --envoy, "
                    + "--istio) both give the current settings; give one");
        }
        // with a log, a DestinationRule's hosts come from the log, as replay takes them (--hosts then optional)
        input.clusterSource.forLog = forLog;
        TuneInputs given = from == null && input.describesCluster() ? TuneInputs.of(input) : null;
        Target chosen = target == null ? null : Target.byFlag(target);
        // the file the recommendation is spliced into: --from's, or run's --istio or --envoy file
        Path clusterFile = from != null
                ? from
                : input.clusterSource.istio != null ? input.clusterSource.istio : input.clusterSource.envoy;
        String fromText = clusterFile == null || clusterFile.toString().equals(InputFiles.STDIN) && from == null
                ? null
                : InputFiles.readText(clusterFile);
        CurrentSettings read = given != null
                ? given.current()
                : from == null
                        ? CurrentSettings.defaults(
                                "search",
                                chosen == null ? Target.byDefault() : chosen,
                                input.hosts() == null ? 1 : input.hosts())
                        : CurrentSettings.read(fromText, from.toString(), part);
        List<String> notes = new ArrayList<>();
        CurrentSettings current = read.asTarget(chosen == null ? read.target() : chosen, notes);
        return new Start(read, current, fromText, notes, given == null ? null : given.clients());
    }
}
