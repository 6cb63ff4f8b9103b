package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.Examples;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The scenario a command works on: an optional scenario file plus {@code --set} overrides. */
public final class ScenarioOptions {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "SCENARIO",
            description = "Scenario file (YAML or JSON). Without it, the built-in default scenario: six hosts at 600"
                    + " rps, host-0 failing 33 %% of requests (503) from 30 s to 240 s, Envoy's default"
                    + " outlier_detection settings. Its failures are spread evenly (never two in a row at 50 %% or"
                    + " less): --set faults[0].pattern=random (or bursts) makes runs of failures.")
    Path scenarioFile;

    @Option(
            names = "--set",
            paramLabel = "KEY=VALUE",
            description = {
                "Override one scenario key (repeatable). Dotted keys with list indexes, e.g.",
                "  --set outlier_detection.max_ejection_percent=34",
                "  --set faults[0].error_rate=100",
                "  --set cluster.hosts=10 --set traffic.rps=1000",
                "  --set faults[0].pattern=random (failures at random instead of evenly spaced)"
            })
    List<String> sets = new ArrayList<>();

    @Option(
            names = "--rps",
            paramLabel = "R",
            description = "Requests per second to the whole cluster, all callers together (traffic.rps).")
    Long rps;

    @Option(
            names = "--clients",
            paramLabel = "P",
            description = "How many callers share the traffic (traffic.clients), each its own detector with its own"
                    + " share: a sidecar per calling pod, a gRPC channel, a gateway process. --rps stays the whole"
                    + " cluster's rate: 600 rps over 50 callers is 12 rps each, 2 per host of six.")
    Integer clients;

    @Option(
            names = "--example",
            paramLabel = "NAME",
            description = "Start from a named example scenario instead of a file (see run --list-examples), e.g."
                    + " --example overload-cap-100.")
    String example;

    @Option(
            names = "--envoy-version",
            paramLabel = "X.Y",
            description = "The Envoy release whose rules apply where releases differ (1.26 to 1.40; default: the"
                    + " scenario's envoy_version, else 1.40). See docs/envoy-fidelity.md.")
    String envoyVersion;

    private String scenarioText;

    /**
     * Reads and validates a scenario of either profile ({@code profile: gateway} or Envoy's); for Envoy's,
     * {@code --envoy-version} overrides the file's {@code envoy_version}.
     */
    public ScenarioReader.Profiled loadProfiled() {
        return source().loadProfiled(allSets());
    }

    /**
     * This scenario source as plain values, its file's text read once: a sweep loads each run's scenario from it
     * (on the workers of a job, too).
     */
    public Source source() {
        if (example != null) {
            requireOneSource();
        }
        return new Source(
                example == null && scenarioFile != null ? scenarioText() : null,
                scenarioFile == null ? null : scenarioFile.toString(),
                example,
                envoyVersion);
    }

    /**
     * A scenario source: a file's text and name, a named example, or neither (the built-in default), and the
     * {@code --envoy-version}.
     */
    public record Source(String text, String name, String example, String envoyVersion) implements Serializable {
        /** Reads and validates the scenario of either profile with these {@code --set} overrides. */
        public ScenarioReader.Profiled loadProfiled(List<String> sets) {
            ScenarioReader.Profiled profiled;
            if (example != null) {
                profiled = ScenarioReader.readProfiled(Examples.text(example), "example " + example, sets);
            } else if (text == null) {
                profiled = ScenarioReader.defaultsProfiled(sets);
            } else {
                profiled = ScenarioReader.readProfiled(text, name, sets);
            }
            return profiled.envoy() == null
                    ? profiled
                    : profiled.withEnvoy(withVersion(envoyVersion, profiled.envoy()));
        }
    }

    /**
     * The scenario file's text, read once: a sweep loads the scenario once per run, and standard input or a pipe
     * can be read only once (the second read found nothing, and the runs after the first silently ran the default).
     */
    private String scenarioText() {
        if (scenarioText == null) {
            String text = InputFiles.readText(scenarioFile);
            // An empty file is a mistake (a wrong path, a failed redirect), not a request for the built-in default:
            // that is what giving no file at all means.
            if (text.lines().allMatch(l -> l.isBlank() || l.stripLeading().startsWith("#"))) {
                throw new InputException(scenarioFile + ": the scenario is empty; give at least"
                        + " one key, or no file at all for the built-in default scenario");
            }
            scenarioText = text;
        }
        return scenarioText;
    }

    /**
     * The {@code --set} overrides, after {@code --rps} as {@code traffic.rps} and {@code --clients} as
     * {@code traffic.clients} (so a --set wins).
     */
    List<String> allSets() {
        List<String> all = new ArrayList<>();
        if (rps != null) {
            if (rps < 1 || rps > TrafficSpec.MAX_RPS) {
                throw new InputException("--rps: " + rps + " is not allowed; expected a whole "
                        + "number of requests per second from 1 to "
                        + TrafficSpec.MAX_RPS);
            }
            all.add("traffic.rps=" + rps);
        }
        if (clients == null) {
            all.addAll(sets);
            return all;
        }
        if (clients < 1 || clients > TrafficSpec.MAX_CLIENTS) {
            throw new InputException("--clients: " + clients + " is not allowed; expected a whole "
                    + "number of callers from 1 to " + TrafficSpec.MAX_CLIENTS
                    + " (and at most traffic.rps)");
        }
        all.add("traffic.clients=" + clients);
        all.addAll(sets);
        return all;
    }

    private void requireOneSource() {
        if (scenarioFile != null) {
            throw new InputException("--example " + example + " and the scenario file " + scenarioFile
                    + " both give a scenario; give one");
        }
    }

    /** Reads and validates the scenario; {@code --envoy-version} overrides the file's {@code envoy_version}. */
    public ScenarioReader.Loaded load() {
        List<String> sets = allSets();
        if (example != null) {
            requireOneSource();
            return withVersion(Examples.load(example, sets));
        }
        return withVersion(
                scenarioFile == null
                        ? ScenarioReader.defaults(sets)
                        : ScenarioReader.read(scenarioText(), scenarioFile.toString(), sets));
    }

    private ScenarioReader.Loaded withVersion(ScenarioReader.Loaded loaded) {
        return withVersion(envoyVersion, loaded);
    }

    private static ScenarioReader.Loaded withVersion(String envoyVersion, ScenarioReader.Loaded loaded) {
        if (envoyVersion == null) {
            return loaded;
        }
        EnvoyVersion version = ScenarioReader.envoyVersion(new Located(envoyVersion, "--envoy-version"));
        return new ScenarioReader.Loaded(loaded.scenario().withEnvoyVersion(version), loaded.hostsGiven());
    }
}
