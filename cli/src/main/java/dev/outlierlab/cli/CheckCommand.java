package dev.outlierlab.cli;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.check.CheckReport;
import dev.outlierlab.check.CheckTargets;
import dev.outlierlab.check.Severity;
import dev.outlierlab.report.FindingsJson;
import dev.outlierlab.report.FindingsText;
import dev.outlierlab.report.SarifReport;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code outlier-lab check FILE}: reads Envoy configuration or an Istio DestinationRule and says what its
 * outlier detection will do, as findings with stable ids, severities, the numbers behind them and a fix.
 */
@Command(name = "check",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Explain what an Envoy cluster's or Istio DestinationRule's outlier detection will do.",
            "Reads Envoy configuration (a Cluster, a list of clusters, a bootstrap, a CDS DiscoveryResponse) or Istio",
            "DestinationRules, and reports: an ejection cap that admits no host, detectors that can never run or only",
            "detect, health checks that undo ejections, panic mode, blind spots, and settings Envoy rejects. Each",
            "finding has a stable id, a severity, the numbers behind it and a suggested fix as YAML.",
            ""},
        footer = {
            "",
            "Examples:",
            "  outlier-lab check envoy.yaml",
            "  outlier-lab check destination-rule.yaml --hosts 6 --rps 600",
            "  outlier-lab check envoy.yaml --format sarif > outlier-lab.sarif",
            "",
            "Exit status: 0 when no finding is at or above --fail-on, 1 when one is, 2 for bad input."})
public final class CheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "Envoy configuration or Istio DestinationRule(s), YAML or JSON.")
    Path file;

    @Option(names = "--hosts", paramLabel = "N",
            description = "Hosts in the cluster (overrides the file's endpoints; needed for EDS clusters and Istio).")
    Integer hosts;

    @Option(names = "--rps", paramLabel = "R",
            description = "Requests per second to the cluster, for the request-volume checks.")
    Long rps;

    @Option(names = "--port", paramLabel = "N", description = "Istio: check the settings for this port.")
    Integer port;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json, or sarif (SARIF 2.1.0 for CI code-scanning annotations).")
    Format format;

    @Option(names = "--fail-on", paramLabel = "LEVEL", defaultValue = "error",
            description = "Exit 1 when a finding is at least this severe: error (default) or warning.")
    FailOn failOn;

    @Option(names = "--envoy-version", paramLabel = "X.Y", defaultValue = "1.40",
            description = {"The Envoy release whose rules the findings assume where releases differ (1.26 to",
                "1.40, default ${DEFAULT-VALUE}): the cap on the first ejection changed in 1.28, health checks in 1.31."})
    String envoyVersion;

    /** Output formats of {@code check}. */
    enum Format { text, json, sarif }

    /** Severities {@code --fail-on} takes. */
    enum FailOn { error, warning }

    @Override
    public Integer call() {
        if (hosts != null && hosts < 1) {
            throw new dev.outlierlab.config.InputException("--hosts: " + hosts + " is not allowed; expected 1 or more");
        }
        if (rps != null && rps < 1) {
            throw new dev.outlierlab.config.InputException("--rps: " + rps + " is not allowed; expected 1 or more");
        }
        String text = InputFiles.readText(file);
        String source = file.toString();
        EnvoyVersion version = ScenarioReader.envoyVersion(new Located(envoyVersion, "--envoy-version"));
        CheckReport report = CheckReport.of(source, CheckTargets.read(text, source, port), hosts, rps, version);
        String out = switch (format) {
            case text -> FindingsText.render(report);
            case json -> FindingsJson.toJson(report);
            case sarif -> SarifReport.toJson(report);
        };
        spec.commandLine().getOut().print(out);
        spec.commandLine().getOut().flush();
        return report.exitCode(failOn == FailOn.warning ? Severity.WARNING : Severity.ERROR);
    }
}
