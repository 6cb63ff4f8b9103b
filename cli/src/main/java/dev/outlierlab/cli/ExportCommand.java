package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyClusterWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code outlier-lab export --envoy [SCENARIO]}: a scenario's cluster as an Envoy cluster YAML snippet. */
@Command(name = "export",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Print a scenario's cluster as Envoy configuration (a Cluster YAML).",
            "The Cluster has every outlier_detection setting, the panic threshold, the health check and one endpoint",
            "per host; 'run --envoy' and 'check' read it back to the same settings.",
            ""},
        footer = {
            "",
            "Examples:",
            "  outlier-lab export --envoy --set outlier_detection.max_ejection_percent=34 > cluster.yaml",
            "  outlier-lab check cluster.yaml",
            "",
            "Exit status: 0 on success, 2 for bad input."})
public final class ExportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    OutputOption output;

    @Mixin
    ScenarioOptions scenario;

    @Option(names = "--envoy", required = true, description = "Write an Envoy cluster (the one format for now).")
    boolean envoy;

    @Override
    public Integer call() {
        if (!envoy) {
            throw new InputException("export: say which format, e.g. --envoy");
        }
        output.emit(spec, EnvoyClusterWriter.toYaml(scenario.load().scenario()));
        return 0;
    }
}
