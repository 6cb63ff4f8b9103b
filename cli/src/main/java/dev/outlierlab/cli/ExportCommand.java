package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.ResultJson;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code outlier-lab export [--to envoy|scenario]}: the cluster that {@code run} would simulate, from any of
 * {@code run}'s inputs, written as an Envoy Cluster (YAML, {@link EnvoyClusterWriter}) or as a lab scenario with every
 * default filled in (JSON, {@link ScenarioWriter}).
 */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Write the cluster that 'run' would simulate, as an Envoy Cluster or a lab scenario.",
            "",
            "Takes run's inputs (a scenario, --envoy FILE, --istio FILE --hosts N, --set). --to envoy"
                    + " (the default) writes every outlier_detection setting, the panic threshold, the health check"
                    + " and one endpoint per host ('run --envoy' and 'check' read it back); --to scenario writes"
                    + " JSON with every default filled in, for run and sweep.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab export --set outlier_detection.max_ejection_percent=34 \\",
            "    > cluster.yaml",
            "  outlier-lab check cluster.yaml",
            "  outlier-lab export --istio destination-rule.yaml --hosts 6",
            "      the Envoy cluster istiod gives the sidecars for this DestinationRule",
            "  outlier-lab export --envoy cluster.yaml --to scenario > scenario.json",
            "",
            "Exit status: 0 on success, 2 for bad input."
        })
public final class ExportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    OutputOption output;

    @Mixin
    InputOptions input;

    @Mixin
    ServerConfigOptions servers;

    @Option(
            names = "--to",
            paramLabel = "FORMAT",
            defaultValue = "envoy",
            description = "What to write: envoy (default: an Envoy Cluster, YAML) or scenario (a lab scenario, JSON,"
                    + " every default filled in).")
    Format to;

    /** What {@code export} writes. */
    enum Format {
        envoy,
        scenario
    }

    @Override
    public Integer call() {
        ClusterSourceOptions cluster = input.clusterSource;
        if (cluster.envoy != null && cluster.envoy.toString().isEmpty()) {
            throw new InputException("--envoy: export's output format is now --to envoy (the default); --envoy FILE "
                    + "reads an Envoy cluster as the input, as run --envoy does. Leave --envoy out, or give it a FILE");
        }
        ScenarioReader.Profiled profiled;
        try {
            profiled = servers.isUsed() ? servers.resolve(input, input.allSets()) : input.resolve();
        } catch (InputException e) {
            throw oldSpelling(e);
        }
        ScenarioExport export = profiled.profile()
                .facet(ScenarioExport.class)
                .orElseThrow(() -> new InputException("export: profile " + profiled.name()
                        + " has no export; export takes " + Profiles.namesWith(ScenarioExport.class)));
        String text = to == Format.envoy
                ? export.envoyCluster(profiled)
                : ResultJson.write(ResultJson.mapper().valueToTree(export.scenario(profiled)));
        output.emit(spec, text.endsWith("\n") ? text : text + "\n");
        return 0;
    }

    /**
     * {@code export --envoy scenario.yaml} was the Envoy format and a scenario file before {@code --envoy FILE} became
     * an input: when the file {@code --envoy} names does not read as Envoy configuration but does as a scenario, say so.
     */
    private InputException oldSpelling(InputException e) {
        ClusterSourceOptions cluster = input.clusterSource;
        if (cluster.envoy == null || input.scenario.scenarioFile != null) {
            return e;
        }
        try {
            ScenarioReader.readProfiled(InputFiles.readText(cluster.envoy), cluster.envoy.toString(), List.of());
        } catch (InputException notAScenario) {
            return e;
        }
        return new InputException("--envoy " + cluster.envoy + ": a scenario, not Envoy configuration; --envoy FILE "
                + "now reads an Envoy cluster as the input. To write this scenario's cluster as Envoy's, use: export "
                + cluster.envoy + " --to envoy");
    }
}
