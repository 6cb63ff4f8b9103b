package dev.outlierlab.cli;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The scenario a command works on: an optional scenario file plus {@code --set} overrides. */
public final class ScenarioOptions {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO",
            description = {"Scenario file (YAML or JSON). Without it, the built-in default scenario:",
                "six hosts at 600 rps, host-0 failing 33 %% of requests (503) from 30 s to 240 s,",
                "Envoy's default outlier_detection settings."})
    Path scenarioFile;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = {"Override one scenario key (repeatable). Dotted keys with list indexes, e.g.",
                "  --set outlier_detection.max_ejection_percent=34",
                "  --set faults[0].error_rate=100 --set cluster.hosts=10 --set traffic.rps=1000"})
    List<String> sets = new ArrayList<>();

    @Option(names = "--example", paramLabel = "NAME",
            description = {"Start from a named example scenario instead of a file (see run --list-examples),",
                "e.g. --example overload-cap-100."})
    String example;

    @Option(names = "--envoy-version", paramLabel = "X.Y",
            description = {"The Envoy release whose rules apply where releases differ (1.26 to 1.40; default: the",
                "scenario's envoy_version, else 1.40). See docs/envoy-fidelity.md."})
    String envoyVersion;

    /**
     * Reads and validates a scenario of either profile ({@code profile: gateway} or Envoy's); for Envoy's,
     * {@code --envoy-version} overrides the file's {@code envoy_version}.
     */
    public ScenarioReader.Profiled loadProfiled() {
        ScenarioReader.Profiled profiled;
        if (example != null) {
            requireOneSource();
            profiled = ScenarioReader.readProfiled(dev.outlierlab.config.scenario.Examples.text(example),
                    "example " + example, sets);
        } else if (scenarioFile == null) {
            profiled = ScenarioReader.defaultsProfiled(sets);
        } else {
            profiled = ScenarioReader.readProfiled(InputFiles.readText(scenarioFile), scenarioFile.toString(), sets);
        }
        return profiled.isGateway() ? profiled
                : new ScenarioReader.Profiled(withVersion(profiled.envoy()), null, profiled.grpc());
    }

    private void requireOneSource() {
        if (scenarioFile != null) {
            throw new dev.outlierlab.config.InputException("--example " + example + " and the scenario file "
                    + scenarioFile + " both give a scenario; give one");
        }
    }

    /** Reads and validates the scenario; {@code --envoy-version} overrides the file's {@code envoy_version}. */
    public ScenarioReader.Loaded load() {
        if (example != null) {
            requireOneSource();
            return withVersion(dev.outlierlab.config.scenario.Examples.load(example, sets));
        }
        return withVersion(scenarioFile == null ? ScenarioReader.defaults(sets)
                : ScenarioReader.read(InputFiles.readText(scenarioFile), scenarioFile.toString(), sets));
    }

    private ScenarioReader.Loaded withVersion(ScenarioReader.Loaded loaded) {
        if (envoyVersion == null) {
            return loaded;
        }
        EnvoyVersion version = ScenarioReader.envoyVersion(new Located(envoyVersion, "--envoy-version"));
        return new ScenarioReader.Loaded(loaded.scenario().withEnvoyVersion(version), loaded.hostsGiven());
    }
}
