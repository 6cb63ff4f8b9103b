package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The recommendation deploys as printed: tuned from a real DestinationRule (namespace, subsets, connection pool, load
 * balancer, a second document) and a real Envoy cluster (health checks, endpoints, circuit breakers), the printed
 * file differs from the input only in outlier-detection fields (the parsed documents are compared), keeps every
 * comment, reads back as the recommended setting, and {@code check} finds no error in it; the diff is a unified diff
 * against the user's file.
 */
class DeployableFileTest {
    private static final Set<String> SCENARIOS = Set.of("one-host-partial", "one-host-dead-503", "shared-outage");

    private static String resource(String name) throws IOException {
        try (InputStream in = DeployableFileTest.class.getResourceAsStream("/deploy/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static TuneResult tune(String text, String source) {
        CurrentSettings current = CurrentSettings.read(text, source);
        List<SuiteScenario> suite = new DefaultSuite(6, 300, 1, 0, current.healthChecks())
                .scenarios().stream().filter(s -> SCENARIOS.contains(s.name())).toList();
        TuneRequest req = TuneRequest.builder()
                .name(current.name())
                .source(source)
                .hosts(6)
                .rps(300)
                .clients(1)
                .target(current.target())
                .envoyVersion(EnvoyVersion.DEFAULT)
                .current(current.config())
                .currentPanicPercent(current.panicThresholdPercent())
                .suite(suite)
                .screenSeeds(1)
                .seeds(1)
                .maxEjected(2)
                .baseErrorPpm(0)
                .threads(1)
                .currentProfile(current.profile())
                .healthChecks(current.healthChecks())
                .build();
        return Tuner.tune(req, u -> {}).deployedInto(text);
    }

    /** Every document of the file, with the outlier-detection block at {@code path} taken out of the first. */
    @SuppressWarnings("unchecked")
    private static List<Object> without(String text, List<String> path) {
        List<Object> docs = new ArrayList<>();
        new Yaml().loadAll(text).forEach(docs::add);
        Map<String, Object> m = (Map<String, Object>) docs.get(0);
        for (int i = 0; i < path.size() - 1; i++) {
            m = (Map<String, Object>) m.get(path.get(i));
        }
        m.remove(path.get(path.size() - 1));
        return docs;
    }

    private static void assertDeployable(
            TuneResult r, String original, List<String> outlierPath, List<String> comments) {
        assertThat(r.deployable().notDone()).isNull();
        String printed = r.recommendedFile();
        assertThat(printed).isNotEqualTo(original);
        assertThat(without(printed, outlierPath)).isEqualTo(without(original, outlierPath));
        assertThat(comments).allMatch(printed::contains);
        List<CheckTarget> read =
                CheckInputs.read(printed, "printed", null, false).targets();
        assertThat(Setting.of(read.get(0).config())).isEqualTo(r.recommended().setting());
        assertThat(read.get(0).panicThresholdPercent()).isEqualTo(r.request().currentPanicPercent());
        assertThat(Explanation.findings(
                        r.request(),
                        new Target.Written(
                                printed, read.get(0).config(), read.get(0).panicThresholdPercent())))
                .noneMatch(f -> f.startsWith("error "));
        assertThat(r.diff()).contains("@@ -").doesNotContain("-  name:").doesNotContain("-  host:");
    }

    @Test
    void aDestinationRulesNamespaceSubsetsPoolsAndOtherDocumentsStayByteForByte() throws IOException {
        String original = resource("dr.yaml");
        TuneResult r = tune(original, "dr.yaml");
        assertDeployable(
                r,
                original,
                List.of("spec", "trafficPolicy", "outlierDetection"),
                List.of("# the team's namespace", "# chosen in 2023", "# The reviews service's rule"));
        assertThat(r.recommendedFile())
                .contains(
                        "kind: VirtualService",
                        "namespace: bookinfo",
                        "host: reviews.bookinfo.svc.cluster.local",
                        "simple: LEAST_REQUEST",
                        "maxConnections: 100");
        assertThat(r.deployable().patch())
                .startsWith("kubectl patch destinationrule reviews -n bookinfo --type merge "
                        + "-p '{\"spec\":{\"trafficPolicy\":{\"outlierDetection\":{");
        assertThat(TuneText.render(r)).contains("Diff against dr.yaml:").contains("Or as a patch:");
    }

    @Test
    void anEnvoyClustersEndpointsHealthChecksAndTimeoutStayByteForByte() throws IOException {
        String original = resource("cluster.yaml");
        TuneResult r = tune(original, "cluster.yaml");
        assertDeployable(
                r,
                original,
                List.of("outlier_detection"),
                List.of("# tuned for the payment provider", "# the platform default"));
        assertThat(r.recommendedFile())
                .contains("connect_timeout: 0.25s", "address: 10.2.0.16", "http_health_check", "max_connections: 1024")
                .doesNotContain("placeholder");
        assertThat(r.deployable().patch()).startsWith("# in the cluster named checkout, under outlier_detection:");
        // the lines before the outlier block are the file's own, in order
        String head = original.substring(0, original.indexOf("outlier_detection:"));
        assertThat(r.recommendedFile()).startsWith(head);
    }

    @Test
    void withoutFromTheOutputSaysNamesAndEndpointsArePlaceholders() {
        List<SuiteScenario> suite = new DefaultSuite(6, 300, 1, 0)
                .scenarios().stream()
                        .filter(s -> s.name().equals("one-host-dead-503"))
                        .toList();
        TuneRequest req = EnvoyRequests.defaults(6, 300, suite).build();
        assertThat(TuneText.render(Tuner.tune(req, u -> {})))
                .contains("the names and endpoints above are placeholders");
    }
}
