package dev.outlierlab.cli;

import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyCluster;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.istio.IstioConfig;
import dev.outlierlab.config.istio.IstioOverrides;
import dev.outlierlab.config.istio.IstioPolicy;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.report.ClusterRules;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code run --envoy FILE [--cluster NAME]} and {@code run --istio FILE --hosts N}: take the cluster (hosts,
 * panic threshold, outlier detection, health checks) from real configuration instead of the scenario; the
 * scenario's duration, seed, traffic and faults still apply.
 */
public final class ClusterSourceOptions {
    // arity 0..1 so that a bare --envoy (export's old format flag) reaches the command and its message
    @Option(
            names = "--envoy",
            paramLabel = "FILE",
            arity = "0..1",
            fallbackValue = "",
            description = "Take the cluster from Envoy configuration: a Cluster, a list of clusters, a bootstrap"
                    + " (static_resources.clusters) or a CDS DiscoveryResponse, YAML or JSON.")
    Path envoy;

    @Option(
            names = "--istio",
            paramLabel = "FILE",
            description = "Take the outlier detection from an Istio DestinationRule, translated as istiod does (or"
                    + " kgateway: --controller), needing --hosts: a DestinationRule does not say how many endpoints"
                    + " there are.")
    Path istio;

    @Option(
            names = "--cluster",
            paramLabel = "NAME",
            description = "Which cluster of the Envoy file (or which DestinationRule, by metadata.name).")
    String cluster;

    @Option(
            names = "--hosts",
            paramLabel = "N",
            description = "Number of hosts (required with --istio and for EDS clusters; overrides the Envoy file's)."
                    + " Without --envoy or --istio: the scenario's cluster.hosts (run, sweep, export, tune).")
    Integer hosts;

    @Option(
            names = "--port",
            paramLabel = "N",
            description = "With --istio: use the DestinationRule's portLevelSettings for this port.")
    Integer port;

    @Option(names = "--subset", paramLabel = "NAME", description = "With --istio: the subset's cluster.")
    String subset;

    @Option(
            names = "--controller",
            paramLabel = "NAME",
            description = "With --istio: istiod or kgateway, the control plane that translates the DestinationRule"
                    + " (default: kgateway when the file's Gateway has a kgateway gatewayClassName, else istiod).")
    String controller;

    /** The name of the Envoy cluster {@link #apply} took from {@code --envoy}, or null. */
    String envoyClusterName;

    /**
     * For a log's replay: the hosts come from the log when the configuration does not list them (a DestinationRule
     * never does; an EDS cluster does not), {@code --hosts} then being an upper bound, and {@code --cluster} may
     * name the log's Envoy cluster ({@code outbound|PORT|SUBSET|FQDN}) to choose the rule and subset istiod applies.
     */
    boolean forLog;

    /** How reports say fixes for the input {@link #apply} read: the DestinationRule's fields, or Envoy's. */
    FixAdvice advice = FixAdvice.ENVOY;

    /**
     * Whether a configuration file or one of its choosers was given ({@code --hosts} alone is a scenario key for the
     * commands that take {@link InputOptions}).
     */
    public boolean isUsed() {
        return hasConfig() || cluster != null || port != null || subset != null || controller != null;
    }

    /** Whether {@code --envoy} or {@code --istio} was given. */
    public boolean hasConfig() {
        return envoy != null || istio != null;
    }

    /**
     * The loaded scenario with the configuration's cluster, and then the {@code --set} overrides again, so that a
     * {@code --set outlier_detection.max_ejection_percent=34} changes the configuration's value instead of being
     * silently replaced by it. Unchanged when no configuration is given.
     */
    public ScenarioReader.Loaded apply(ScenarioReader.Loaded loaded, List<String> sets) {
        return apply(loaded, sets, false);
    }

    /**
     * As {@link #apply(ScenarioReader.Loaded, List)}; with {@code hostsInSets}, a {@code --hosts} without a
     * configuration file is already among the overrides (as {@code cluster.hosts}) instead of a mistake.
     */
    ScenarioReader.Loaded apply(ScenarioReader.Loaded loaded, List<String> given, boolean hostsInSets) {
        IstioOverrides istioSets = istio == null ? IstioOverrides.NONE : IstioOverrides.split(given);
        List<String> sets = istio == null ? given : istioSets.others();
        ScenarioReader.Loaded configured = apply(loaded, hostsInSets, istioSets);
        if (configured == loaded || sets.isEmpty()) {
            return configured;
        }
        Map<String, Object> map = new LinkedHashMap<>(ScenarioWriter.toMap(configured.scenario()));
        // Only what the configuration set, so that the report still tells set values from Envoy's defaults.
        var config = configured.scenario().outlierDetection();
        if (map.get("outlier_detection") instanceof Map<?, ?> written) {
            Map<Object, Object> kept = new LinkedHashMap<>(written);
            for (OutlierSetting setting : OutlierSetting.values()) {
                if (!config.isExplicit(setting)) {
                    kept.remove(setting.envoyName());
                }
            }
            map.put("outlier_detection", kept);
        }
        String asRun = ResultJson.write(ResultJson.mapper().valueToTree(map));
        String source = envoy != null ? envoy.toString() : istio.toString();
        Scenario reread = ScenarioReader.read(asRun, source, sets).scenario();
        // what the configuration set that the lab reads past is said as the configuration's reader said it
        return new ScenarioReader.Loaded(
                reread.withRouting(reread.routing()
                        .withNotModelled(configured.scenario().routing().notModelled())),
                configured.hostsGiven());
    }

    /** The loaded scenario with the configuration's cluster, or unchanged when no configuration is given. */
    public ScenarioReader.Loaded apply(ScenarioReader.Loaded loaded) {
        return apply(loaded, false, IstioOverrides.NONE);
    }

    /**
     * {@code --cluster} when it names an Envoy cluster as Istio does ({@code outbound|9080||reviews.default.svc.
     * cluster.local}) rather than a DestinationRule; null otherwise.
     */
    String envoyClusterName() {
        if (istio == null || cluster == null || !cluster.contains("|")) {
            return null;
        }
        if (subset != null || port != null) {
            throw new InputException("--cluster " + cluster + " names the Envoy cluster, its port and subset already; "
                    + "--subset and --port are for a --cluster that names the DestinationRule");
        }
        return cluster;
    }

    /** The cluster whose lines of the log to replay: {@code --cluster} unless it names a DestinationRule. */
    String logCluster() {
        return istio != null ? envoyClusterName() : cluster;
    }

    /** With {@link #forLog} and {@code --istio} without a cluster chosen: the file's rules, for each log cluster. */
    private IstioConfig logRules;

    /** Why no one rule could be chosen for the whole log, said if the log's clusters do not choose either. */
    private InputException unselected;

    /**
     * For a replay of a mesh's log with {@code --istio} and no {@code --cluster}: the rule and subset istiod applies
     * to each of the log's clusters ({@link ClusterRules}); null when one rule applies to every cluster.
     */
    ClusterRules rulesFor(Scenario base, List<ReplayGroup> groups) {
        ClusterRules rules = logRules == null ? null : ClusterRules.of(logRules, base, groups);
        if (rules == null && unselected != null) {
            throw unselected;
        }
        return rules;
    }

    /**
     * A Flink replay runs one scenario for every cluster of the logs; with {@code --istio} and no {@code --cluster}
     * each cluster needs the rule and subset istiod gives it ({@link ClusterRules}), which only a local replay does.
     */
    void refuseClustersByLogOnFleet() {
        if (logRules != null) {
            throw new InputException("--engine flink: --istio without --cluster gives each of the log's clusters the"
                    + " DestinationRule and subset istiod applies to it, which only a local replay does; give --cluster"
                    + " outbound|PORT|SUBSET|FQDN to replay one cluster on Flink, or leave out --engine flink");
        }
    }

    /** With {@link #forLog}: the most hosts a log's cluster may have ({@code --hosts}), or null. */
    Integer hostBound() {
        return hosts;
    }

    /**
     * The overrides the scenario reads: without {@code --istio} all of them; with it, those that do not name a
     * DestinationRule field ({@link IstioOverrides}), which {@link #apply} sets in the rule instead.
     */
    List<String> scenarioSets(List<String> sets) {
        return istio == null ? sets : IstioOverrides.split(sets).others();
    }

    private ScenarioReader.Loaded apply(ScenarioReader.Loaded loaded, boolean hostsInSets, IstioOverrides istioSets) {
        if (envoy != null && envoy.toString().isEmpty()) {
            throw new InputException(
                    "--envoy: missing FILE; give the Envoy configuration to take the cluster from, e.g."
                            + " --envoy cluster.yaml");
        }
        if (envoy != null && istio != null) {
            throw new InputException("--envoy and --istio: give one of them");
        }
        if (envoy == null && istio == null) {
            if (cluster != null
                    || (hosts != null && !hostsInSets)
                    || port != null
                    || subset != null
                    || controller != null) {
                throw new InputException((hostsInSets
                                ? "--cluster, --port, --subset and --controller choose"
                                : "--cluster, --hosts, --port, --subset and --controller choose")
                        + " from a configuration file: "
                        + "add --envoy FILE or --istio FILE"
                        + (hostsInSets ? "" : " (or set cluster.hosts with --set)"));
            }
            return loaded;
        }
        if (hosts != null && (hosts < 1 || hosts > ClusterSpec.MAX_HOSTS)) {
            throw new InputException("--hosts: " + hosts + " is not allowed; expected " + OptionRanges.HOSTS);
        }
        Scenario base = loaded.scenario();
        Scenario s;
        if (envoy != null) {
            if (port != null || subset != null || controller != null) {
                throw new InputException("--port, --subset and --controller are for --istio; with --envoy choose with "
                        + "--cluster NAME");
            }
            EnvoyCluster chosen = EnvoyConfigReader.read(InputFiles.readText(envoy), envoy.toString())
                    .cluster(cluster);
            envoyClusterName = chosen.name();
            if (forLog && chosen.hosts().isEmpty()) {
                return new ScenarioReader.Loaded(chosen.toScenario(base, hosts == null ? 1 : hosts), false);
            }
            s = chosen.toScenario(base, hosts);
        } else {
            if (hosts == null && !forLog) {
                throw new InputException("--istio needs --hosts N: a DestinationRule does not say how many endpoints "
                        + "the service has");
            }
            IstioConfig rules = DestinationRuleReader.read(
                    InputFiles.readText(istio),
                    istio.toString(),
                    port,
                    DestinationRuleController.parse(controller, "--controller"),
                    istioSets);
            boolean byLogCluster = forLog && cluster == null && subset == null && port == null;
            logRules = byLogCluster ? rules : null;
            IstioPolicy policy;
            try {
                policy = envoyClusterName() != null ? rules.forCluster(cluster) : rules.select(cluster, subset, port);
            } catch (InputException e) {
                if (!byLogCluster || rules.policies().isEmpty()) {
                    throw e;
                }
                // several rules: each cluster of the log gets its own ({@link #rulesFor}); said when none does
                unselected = e;
                policy = rules.policies().get(0);
            }
            advice = FixAdvice.of(policy, rules.controller());
            if (forLog) {
                return new ScenarioReader.Loaded(policy.toScenario(base, hosts == null ? 1 : hosts), false);
            }
            s = policy.toScenario(base, hosts);
        }
        return new ScenarioReader.Loaded(s, true);
    }
}
