package dev.outlierlab.cli;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckRun;
import dev.outlierlab.check.Finding;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.yaml.Located;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.format.CheckFormats;
import dev.outlierlab.report.format.Formats;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code outlier-lab check FILE}: reads Envoy configuration or an Istio DestinationRule and says what its
 * outlier detection will do, as findings with stable ids, severities, the numbers behind them and a fix.
 */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Explain what the outlier detection of an Envoy, Istio, Kuma, gRPC, gateway, nginx, HAProxy or Caddy config will do.",
            "",
            "Reads Envoy configuration (a Cluster, a list of clusters, a bootstrap, a CDS"
                    + " DiscoveryResponse, an admin /config_dump, egctl's or Kuma's dump) or Kubernetes"
                    + " manifests (Istio DestinationRules, by istiod or kgateway, Flagger Canaries, Envoy"
                    + " Gateway BackendTrafficPolicies and backendSettings, Kuma MeshCircuitBreakers,"
                    + " Cilium CiliumEnvoyConfigs, Admiral OutlierDetections), and reports: an ejection"
                    + " cap that admits no host, detectors that can never run, eject or only detect,"
                    + " health checks that undo ejections, panic mode, blind spots, and settings Envoy"
                    + " rejects. Each finding has a stable id, a severity, the numbers behind it and a"
                    + " suggested fix as YAML. A file with a top-level gateway: section is a gateway"
                    + " configuration (profile gateway, with routing: and optionally cluster.hosts):"
                    + " --hosts gives its endpoint count. An nginx.conf (with its includes), a"
                    + " haproxy.cfg or a Caddyfile (or Caddy's JSON) is read for its upstream, backend or"
                    + " reverse_proxy and checked against that server's passive-check rules.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab check envoy.yaml",
            "  outlier-lab check deploy/ other.yaml",
            "  curl -s localhost:9901/config_dump | outlier-lab check - --rps 600",
            "  outlier-lab check destination-rule.yaml --hosts 6 --rps 600",
            "  outlier-lab check destination-rule.yaml --hosts 6 --controller kgateway",
            "  outlier-lab check destination-rule.yaml --hosts 6 --rps 600 --clients 50",
            "      600 rps from 50 pods: each sidecar sees 12 rps, 20 per host per 10 s",
            "  outlier-lab check envoy.yaml --format sarif > outlier-lab.sarif",
            "  outlier-lab check gateway.yaml --hosts 2 --rps 600",
            "",
            "Exit status: 0 when no finding is at or above --fail-on, 1 when one is, 2 for bad"
                    + " input. With several files or a directory every file is checked and the unreadable"
                    + " ones are listed at the end (exit 2)."
        })
public final class CheckCommand implements Callable<Integer>, FormatOption.Formatted {
    @Spec
    CommandSpec spec;

    @Mixin
    OutputOption output;

    @Parameters(
            arity = "1..*",
            paramLabel = "FILE",
            description = "Envoy configuration or Kubernetes manifests, YAML or JSON; - for standard"
                    + " input; a directory for every .yaml, .yml and .json file under it.")
    List<String> files;

    /** The most hosts --hosts may give: the checks that simulate balancing keep an array of the hosts. */
    static final int MAX_HOSTS = 1_000_000;

    @Option(
            names = "--hosts",
            paramLabel = "N",
            description = "Hosts in the cluster (overrides the file's endpoints; needed for EDS clusters and Istio).")
    Integer hosts;

    @Option(
            names = "--rps",
            paramLabel = "R",
            description = "Requests per second to the cluster, for the request-volume checks.")
    Long rps;

    @Option(
            names = "--clients",
            paramLabel = "P",
            defaultValue = "1",
            description = "Callers sharing --rps, each its own detector (a sidecar per calling"
                    + " pod, a gRPC channel): the request-volume findings are then per"
                    + " caller. 600 rps over 50 callers is 12 rps each.")
    int clients;

    @Option(names = "--port", paramLabel = "N", description = "Istio: check the settings for this port.")
    Integer port;

    @Option(
            names = "--controller",
            paramLabel = "NAME",
            description = "istiod or kgateway: the control plane that translates the files'"
                    + " DestinationRules. Without it: kgateway when the file's Gateway has"
                    + " a kgateway gatewayClassName, else istiod; the report says which.")
    String controller;

    @Mixin
    FormatOption format;

    @Option(
            names = "--fail-on",
            paramLabel = "LEVEL",
            defaultValue = "error",
            description = "Exit 1 when a finding is at least this severe: error (default) or warning.")
    FailOn failOn;

    @Option(
            names = "--envoy-version",
            paramLabel = "X.Y",
            defaultValue = "1.40",
            description = "The Envoy release whose rules the findings assume where releases"
                    + " differ (1.26 to 1.40, default ${DEFAULT-VALUE}): the cap on the"
                    + " first ejection changed in 1.28, health checks in 1.31.")
    String envoyVersion;

    @Option(
            names = "--profile",
            paramLabel = "NAME",
            description = "grpc: check Envoy clusters as a gRPC client reads them through xDS"
                    + " (docs/grpc.md). A gRPC service config (JSON with"
                    + " loadBalancingConfig) is always checked as gRPC's.")
    String profile;

    @Option(
            names = "--grpc-implementation",
            paramLabel = "NAME",
            description = "For gRPC findings: java (default), go or core, whose key spellings and rules apply.")
    String grpcImplementation;

    @Mixin
    CheckPartOptions parts;

    /** One file: a server's own configuration (nginx, HAProxy, Caddy), a gRPC service config, or configuration read by Envoy (or, with --profile grpc, by a gRPC client). */
    private CheckInputs.Loaded readOne(String text, String source, boolean inDirectory) {
        for (Profiles.Registered p : Profiles.withFacet(CheckFile.class)) {
            CheckFile file = p.facet(CheckFile.class).orElseThrow();
            if (file.recognises(text, source)) {
                return file.check(text, source, parts.partFor(file));
            }
        }
        GrpcImplementation impl = GrpcCheckInputs.implementation(grpcImplementation);
        if (GrpcCheckInputs.isServiceConfig(text)) {
            return GrpcCheckInputs.serviceConfig(text, source, impl);
        }
        CheckInputs.Loaded envoy = CheckInputs.read(
                text, source, port, inDirectory, DestinationRuleController.parse(controller, "--controller"));
        return profile == null
                ? envoy
                : Profiles.facet(profile, CheckAsClient.class, this::unknownProfile)
                        .asClient(envoy, grpcImplementation);
    }

    private InputException unknownProfile(String names) {
        return new InputException("--profile: \"" + profile + "\" is not allowed; expected " + names + " (Envoy's rules"
                + " are the default)");
    }

    /** Severities {@code --fail-on} takes. */
    enum FailOn {
        error,
        warning
    }

    /** Refuses bad numbers, an unknown profile, gRPC implementation or controller, before any file is read. */
    private void refuseBadOptions() {
        if (hosts != null && (hosts < 1 || hosts > MAX_HOSTS)) {
            throw new InputException("--hosts: " + hosts + " is not allowed; expected 1 to 1000000 (check's limit: the "
                    + "panic and cap checks keep a few bytes per host)");
        }
        if (rps != null && rps < 1) {
            throw new InputException("--rps: " + rps + " is not allowed; expected 1 or more");
        }
        if (profile != null) {
            Profiles.facet(profile, CheckAsClient.class, this::unknownProfile);
        }
        GrpcCheckInputs.implementation(grpcImplementation); // a bad name is the run's one message, before any file
        DestinationRuleController.parse(controller, "--controller");
        if (clients < 1 || clients > TrafficSpec.MAX_CLIENTS || rps != null && clients > rps) {
            throw new InputException("--clients: " + clients + " is not allowed; expected a whole number of callers "
                    + "from 1 to " + (rps == null ? TrafficSpec.MAX_CLIENTS : Math.min(rps, TrafficSpec.MAX_CLIENTS))
                    + (rps != null
                            ? " (at most --rps, " + rps + ": every caller sends at least one request a second)"
                            : ""));
        }
    }

    @Override
    public Formats<CheckRun> formats() {
        return CheckFormats.CHECK;
    }

    @Override
    public Integer call() {
        refuseBadOptions();
        List<CheckInputs.Loaded> loaded = CheckFiles.readAll(
                files, this::readOne, line -> spec.commandLine().getErr().println("outlier-lab: " + line));
        parts.refuseUnused();
        EnvoyVersion version = ScenarioReader.envoyVersion(new Located(envoyVersion, "--envoy-version"));
        Severity threshold = failOn == FailOn.warning ? Severity.WARNING : Severity.ERROR;
        if (loaded.stream().allMatch(CheckInputs.Loaded::notRead)) {
            // nothing could be read: bad input, each file's message and no report of nothing
            loaded.forEach(l -> unreadable(l.fileFindings()));
            spec.commandLine().getErr().flush();
            return 2;
        }
        CheckRun run = new CheckRun(String.join(" ", files), loaded, hosts, rps, version, clients);
        format.emit(output, spec, CheckFormats.CHECK, run);
        int code = run.exitCode(threshold);
        unreadable(run.unreadable());
        spec.commandLine().getErr().flush();
        return code;
    }

    /** Names each file not read on standard error, at its line (a directory has none). */
    private void unreadable(List<Finding> notRead) {
        for (Finding f : notRead) {
            spec.commandLine()
                    .getErr()
                    .println("outlier-lab: "
                            + Wording.printable(f.file() + (f.line() > 0 ? ":" + f.line() : "") + ": " + f.message()));
        }
    }
}
