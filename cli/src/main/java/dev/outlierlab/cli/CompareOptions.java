package dev.outlierlab.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.outlierlab.accesslog.ReplayGroup;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.istio.DestinationRuleReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.report.ClusterRules;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * {@code replay --compare FILE} and {@code --compare-set KEY=VALUE}: a second set of settings to replay the same
 * log with. The file is read as the first settings are: an Envoy configuration when they come from
 * {@code --envoy} (the same {@code --cluster}, {@code --hosts}), a DestinationRule with {@code --istio} (the same
 * {@code --cluster}, {@code --subset}, {@code --port}, {@code --hosts}), else a scenario file. The
 * {@code --compare-set} overrides go on top of the file, or of the first settings when there is no file. A file
 * that is plainly of another kind is refused naming what it looks like.
 */
public final class CompareOptions {
    private static final Pattern DESTINATION_RULE =
            Pattern.compile("(?m)^\\s*-?\\s*\"?kind\"?\\s*:\\s*\"?DestinationRule\\b");
    private static final Pattern KUBERNETES = Pattern.compile("(?m)^\\s*-?\\s*\"?kind\"?\\s*:\\s*\"?([A-Z][A-Za-z]*)");
    private static final Pattern ENVOY = Pattern.compile("(?m)^\\s*-?\\s*\"?(static_resources|connect_timeout|"
            + "load_assignment|lb_policy|@type|version_info|configs|eds_cluster_config|common_lb_config)\"?\\s*:");
    private static final Pattern SCENARIO = Pattern.compile(
            "(?m)^\"?(faults|traffic|duration|seed|load|health_checks|" + "profile|envoy_version|cluster)\"?\\s*:");

    @Option(
            names = "--compare",
            paramLabel = "FILE",
            description = "Also replay with the settings of FILE, side by side: a scenario file, or with --envoy an"
                    + " Envoy configuration, with --istio a DestinationRule.")
    Path file;

    @Option(
            names = "--compare-set",
            paramLabel = "KEY=VALUE",
            description = "Also replay with these settings on top of the first ones, or of --compare FILE (repeatable),"
                    + " e.g. --compare-set outlier_detection.max_ejection_percent=34")
    List<String> sets = new ArrayList<>();

    /** The second settings: the scenario, whether it gives the hosts, and how reports name it. */
    public record Compared(Scenario scenario, boolean hostsGiven, String label) {}

    /** Whether a second replay was asked for. */
    public boolean isUsed() {
        return file != null || !sets.isEmpty();
    }

    /**
     * The second settings.
     *
     * @param base    the scenario file (or the defaults) with {@code --set}, before {@code --envoy} or {@code --istio}
     * @param primary the first settings
     * @param source  where the first settings came from
     */
    public Compared load(ScenarioReader.Loaded base, ScenarioReader.Loaded primary, ClusterSourceOptions source) {
        String setsLabel = String.join(" ", sets);
        if (file == null) {
            return new Compared(withSets(primary.scenario()), primary.hostsGiven(), "those with " + setsLabel);
        }
        String text = InputFiles.readText(file);
        String label = file + (sets.isEmpty() ? "" : " with " + setsLabel);
        if (source.envoy != null) {
            expect(
                    text,
                    "envoy",
                    "--envoy, so --compare takes an Envoy configuration like it (a cluster, a list "
                            + "of clusters, a bootstrap, a CDS response or a config dump)");
            Scenario s = EnvoyConfigReader.read(text, file.toString())
                    .cluster(source.cluster)
                    .toScenario(base.scenario(), source.hosts);
            return new Compared(withSets(s), true, label);
        }
        if (source.istio != null) {
            expect(text, "istio", "--istio, so --compare takes an Istio DestinationRule like it");
            Scenario s = DestinationRuleReader.read(
                            text,
                            file.toString(),
                            source.port,
                            DestinationRuleController.parse(source.controller, "--controller"))
                    .select(source.cluster, source.subset, source.port)
                    .toScenario(base.scenario(), source.hosts);
            return new Compared(withSets(s), true, label);
        }
        expect(text, "scenario", "a scenario (--scenario, --set), so --compare takes a scenario file");
        ScenarioReader.Loaded loaded = ScenarioReader.read(text, file.toString(), sets);
        return new Compared(loaded.scenario(), loaded.hostsGiven(), label);
    }

    /** Refuses a file that is plainly not of the {@code expected} kind. */
    private void expect(String text, String expected, String why) {
        String kind;
        String what;
        Matcher k = KUBERNETES.matcher(text);
        Matcher e = ENVOY.matcher(text);
        Matcher s = SCENARIO.matcher(text);
        if (DESTINATION_RULE.matcher(text).find()) {
            kind = "istio";
            what = "an Istio DestinationRule";
        } else if (k.find()) {
            kind = "kubernetes";
            what = "a Kubernetes manifest (kind " + k.group(1) + ")";
        } else if (e.find()) {
            kind = "envoy";
            what = "an Envoy configuration (it has " + e.group(1) + ")";
        } else if (s.find()) {
            kind = "scenario";
            what = "a scenario file (it has " + s.group(1) + ")";
        } else {
            return;
        }
        if (!kind.equals(expected)) {
            throw new InputException(
                    "--compare " + file + ": the file is " + what + ", but the first settings come " + "from " + why);
        }
    }

    /**
     * For a replay whose log clusters each get their own DestinationRule block ({@link ClusterRules}): each cluster's
     * second settings, {@code --compare-set} on top of that cluster's own or the {@code --compare} rule's block for
     * the same cluster; null when one set of second settings applies to every cluster.
     */
    Function<String, Scenario> perCluster(
            ClusterRules rules, ClusterSourceOptions source, Scenario base, List<ReplayGroup> groups) {
        if (rules == null) {
            return null;
        }
        if (file == null) {
            return c -> withSets(rules.scenario(c));
        }
        if (source.istio == null) {
            return null;
        }
        ClusterRules other = ClusterRules.of(
                DestinationRuleReader.read(
                        InputFiles.readText(file),
                        file.toString(),
                        source.port,
                        DestinationRuleController.parse(source.controller, "--controller")),
                base,
                groups);
        return other == null ? null : c -> withSets(other.scenario(c));
    }

    /** {@code s} with the {@code --compare-set} overrides on top. */
    private Scenario withSets(Scenario s) {
        if (sets.isEmpty()) {
            return s;
        }
        try {
            String text = ResultJson.mapper().writeValueAsString(ScenarioWriter.toMap(s));
            return ScenarioReader.read(text, "--compare-set", sets).scenario();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
