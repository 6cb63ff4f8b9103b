package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every file of the real-file corpus ({@code src/test/resources/corpus}, sources in its README) is read, and
 * gives exactly the finding ids listed here; the three files {@code check} must refuse (two in Envoy's removed v1
 * API, one Helm template) are refused with the message that says so.
 */
class CorpusTest {
    private static final String CAP_BELOW = "cap-admits-no-host-below";
    private static final String PARTIAL = "consecutive-5xx-misses-partial-failure";
    private static final String NO_OD = "no-outlier-detection";
    /** Kuma and Envoy Gateway enforce both success rate and failure percentage. */
    private static final String DOUBLE_OFFER = "success-rate-failure-percentage-double-offer";

    private static final String KUMA_GOLDEN = "cap-allows-panic " + PARTIAL + " gateway-detector-redundant "
            + "interval-longer-than-ejection " + DOUBLE_OFFER;

    /** File -> the finding ids it gives. */
    private static final Map<String, String> EXPECTED = Map.ofEntries(
            Map.entry("envoy-gateway/egctl-in.all.json", NO_OD + " not-modelled single-host-cluster"),
            Map.entry("envoy-gateway/egctl-out.cluster.yaml", NO_OD + " not-modelled single-host-cluster"),
            Map.entry("envoy-gateway/egctl-translate-from-gateway-api-to-xds.cluster.yaml", NO_OD),
            Map.entry(
                    "envoy-gateway/failover-backendtrafficpolicy.yaml",
                    "cap-allows-panic detector-threshold-zero hair-trigger-threshold local-origin-ignored"),
            Map.entry("envoy-gateway/xds-ir-accesslog-als-tcp.clusters.yaml", CAP_BELOW + " " + PARTIAL),
            // their load_balancing_policy has a slow_start_config, which the lab reads past and says so
            Map.entry(
                    "envoy-gateway/xds-ir-ext-proc-with-retries.clusters.yaml",
                    CAP_BELOW + " " + PARTIAL + " " + NO_OD + " not-modelled"),
            Map.entry(
                    "envoy-gateway/xds-ir-ext-proc-with-traffic-settings.clusters.yaml",
                    CAP_BELOW + " " + PARTIAL + " " + NO_OD + " not-modelled"),
            Map.entry(
                    "envoy-gateway/xds-ir-health-check.clusters.yaml",
                    "cap-allows-panic " + PARTIAL + " detector-threshold-zero health-check-returns-ejected " + NO_OD),
            Map.entry(
                    "envoy-gateway/xds-ir-jwt-with-backend-tls-retry.clusters.yaml",
                    NO_OD + " not-modelled single-host-cluster"),
            Map.entry(
                    "envoy-gateway/xds-ir-oidc-backend-cluster-provider.clusters.yaml",
                    NO_OD + " not-modelled single-host-cluster"),
            Map.entry(
                    "envoy-gateway/xds-ir-oidc-provider-traffic-features.clusters.yaml",
                    NO_OD + " not-modelled single-host-cluster"),
            Map.entry(
                    "envoy-gateway/xds-ir-passive-failure-percentage.clusters.yaml",
                    PARTIAL + " detector-threshold-zero " + DOUBLE_OFFER),
            Map.entry("envoy-gateway/xds-ir-tracing.clusters.yaml", NO_OD + " single-host-cluster"),
            Map.entry("envoy/envoy-demo.yaml", NO_OD),
            Map.entry("flagger/istio-abtest.yaml", NO_OD),
            Map.entry("flagger/istio-canary.yaml", NO_OD),
            Map.entry("istio/bookinfo-destination-rule-all.yaml", NO_OD),
            Map.entry("istio/bookinfo-virtual-service-all-v1.yaml", "nothing-to-check"),
            Map.entry("istio/bootstrap-all_golden.json", NO_OD + " not-modelled"),
            Map.entry("istio/bootstrap-default_golden.json", NO_OD),
            Map.entry("istio/destination-rule-all.yaml", "not-modelled single-host-cluster"),
            // istiod's locality failover (the rule has outlierDetection) and its default route retries
            Map.entry(
                    "istio/destination-rule-locality.yaml",
                    PARTIAL + " istio-locality-failover panic-disabled-eject-all" + " route-retries-hide-failures"),
            Map.entry("kuma/basic-meshexternalservice-outlier.zone_proxy_cluster.golden.yaml", KUMA_GOLDEN),
            Map.entry("kuma/inbound_cluster_connection_limits_outlier_detection.golden.yaml", KUMA_GOLDEN),
            Map.entry("kuma/inbound_cluster_outlier_detection.golden.yaml", KUMA_GOLDEN),
            Map.entry("kuma/meshcircuitbreaker-inbound.input.yaml", "nothing-to-check"),
            // standardDeviationFactor 1900 is a factor success rate never reaches: no double offer to speak of
            Map.entry(
                    "kuma/meshcircuitbreaker-outbound.input.yaml",
                    CAP_BELOW + " " + PARTIAL + " gateway-detector-redundant success-rate-cannot-eject"),
            Map.entry("cilium/envoy-circuit-breaker.yaml", CAP_BELOW + " " + PARTIAL),
            Map.entry(
                    "cilium/envoy-traffic-management-test.yaml",
                    CAP_BELOW + " " + PARTIAL + " retries-feed-consecutive-counter"),
            Map.entry("admiral/od.yaml", PARTIAL + " not-modelled panic-disabled-eject-all"),
            Map.entry(
                    "kgateway/setup-failover.yaml",
                    "cap-admits-no-host " + PARTIAL + " long-ejection not-modelled " + "success-rate-too-few-hosts"),
            // 4 hosts from its backendRefs: Envoy Gateway's default cap of 10 % admits none
            Map.entry(
                    "envoy-gateway/gatewayapi-envoyextensionpolicy-with-extproc-with-retries.in.yaml",
                    "cap-admits-no-host " + PARTIAL + " not-modelled success-rate-too-few-hosts"),
            Map.entry("envoy-gateway/gatewayapi-envoyproxy-tracing-backend.in.yaml", CAP_BELOW + " " + PARTIAL),
            Map.entry(
                    "envoy-gateway/gatewayapi-securitypolicy-with-jwt-backendsettings.in.yaml",
                    "cap-allows-panic " + PARTIAL + " detector-threshold-zero health-check-returns-ejected"),
            // one 5xx ejects for an hour, and the cap of 80 % can leave fewer than Envoy's 50 % healthy
            Map.entry(
                    "kgateway/outlier-detection-backendconfigpolicy.yaml",
                    "cap-allows-panic hair-trigger-threshold long-ejection"),
            Map.entry("kgateway/backendconfigpolicy-healthcheck.yaml", "nothing-to-check"),
            Map.entry(
                    "envoy-gateway/gatewayapi-securitypolicy-with-jwt-backendcluster.in.yaml",
                    "cap-allows-panic " + PARTIAL
                            + " detector-threshold-zero health-check-returns-ejected not-modelled"),
            Map.entry(
                    "envoy-gateway/gatewayapi-envoyproxy-tracing-backend-uds.in.yaml",
                    "not-modelled single-host-cluster"),
            Map.entry("kuma/outbound_cluster_connection_limits.golden.yaml", NO_OD),
            Map.entry("kuma/outbound_cluster_outlier_detection.golden.yaml", KUMA_GOLDEN),
            Map.entry("kuma/outbound_cluster_outlier_detection_disabled.golden.yaml", NO_OD),
            Map.entry("kuma/outbound_split_cluster_connection_limits_outlier_detection.golden.yaml", KUMA_GOLDEN));

    /** File -> a fragment of the message it is refused with. */
    private static final Map<String, String> REFUSED = Map.of(
            "envoy/google_com_proxy.v1.json", "google_com_proxy.v1.json:37: this is Envoy's v1 configuration",
            "envoy/google_com_proxy.v1.yaml", "google_com_proxy.v1.yaml:27: this is Envoy's v1 configuration",
            "flagger/podinfo-canary-template.yaml",
                    "podinfo-canary-template.yaml:1: the file is a template "
                            + "({{- if .Values.canary.enabled }} at line 1)");

    static Path corpus() {
        try {
            return Path.of(CorpusTest.class.getResource("/corpus/README.md").toURI())
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String read(String file) throws IOException {
        return Files.readString(corpus().resolve(file), StandardCharsets.UTF_8);
    }

    @Test
    void everyFileOfTheCorpusHasAnExpectationAndThereAreAtLeastThirty() throws IOException {
        Set<String> files;
        try (Stream<Path> walk = Files.walk(corpus())) {
            files = walk.filter(Files::isRegularFile)
                    .map(p -> corpus().relativize(p).toString().replace('\\', '/'))
                    .filter(p -> !p.equals("README.md"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        Set<String> expected = new TreeSet<>(EXPECTED.keySet());
        expected.addAll(REFUSED.keySet());
        assertThat(files).isEqualTo(expected).hasSizeGreaterThanOrEqualTo(30);
        String readme = read("README.md");
        files.forEach(f -> assertThat(readme).as("README lists %s", f).contains("`" + f + "`"));
    }

    @Test
    void everyValidFileIsReadWithTheExpectedFindings() throws IOException {
        Map<String, String> actual = new TreeMap<>();
        for (String file : EXPECTED.keySet()) {
            CheckInputs.Loaded loaded = CheckInputs.read(read(file), file, null, false);
            CheckReport report = CheckReport.ofFiles(file, List.of(loaded), null, null);
            actual.put(
                    file,
                    report.findings().stream()
                            .map(f -> f.rule().id())
                            .distinct()
                            .sorted()
                            .collect(Collectors.joining(" ")));
        }
        Map<String, String> wanted = new TreeMap<>();
        EXPECTED.forEach((f, ids) -> wanted.put(f, String.join(" ", new TreeSet<>(List.of(ids.split(" "))))));
        assertThat(actual).isEqualTo(wanted);
    }

    @Test
    void filesCheckMustRefuseAreRefusedWithTheReason() throws IOException {
        for (Map.Entry<String, String> e : REFUSED.entrySet()) {
            String text = read(e.getKey());
            assertThatThrownBy(() -> CheckInputs.read(text, e.getKey(), null, false))
                    .as(e.getKey())
                    .isInstanceOf(InputException.class)
                    .hasMessageContaining(e.getValue());
        }
    }

    @Test
    void kumasStandardDeviationFactorOf1900IsNamedAsAUnitMistake() throws IOException {
        String file = "kuma/meshcircuitbreaker-outbound.input.yaml";
        CheckReport report =
                CheckReport.ofFiles(file, List.of(CheckInputs.read(read(file), file, null, false)), null, null);
        Finding f = report.findings().stream()
                .filter(x -> x.rule() == Rule.SUCCESS_RATE_CANNOT_EJECT)
                .findFirst()
                .orElseThrow();
        assertThat(f.target()).isEqualTo("mcb-1/to[0] (MeshService)");
        assertThat(f.numbers())
                .containsEntry("success_rate_stdev_factor", 1_900_000L)
                .containsEntry("factor", 1900.0)
                .containsEntry("likely_meant_stdev_factor", 1900L);
        assertThat(f.fix())
                .isEqualTo("default:\n  outlierDetection:\n    detectors:\n      successRate:\n"
                        + "        standardDeviationFactor: 1.9   # a factor of 1.9\n");
    }

    @Test
    void envoyGatewaysFailoverExampleIsAHairTrigger() throws IOException {
        String file = "envoy-gateway/failover-backendtrafficpolicy.yaml";
        CheckReport report =
                CheckReport.ofFiles(file, List.of(CheckInputs.read(read(file), file, null, false)), 4, 400L);
        Finding f = report.findings().stream()
                .filter(x -> x.rule() == Rule.HAIR_TRIGGER)
                .findFirst()
                .orElseThrow();
        // consecutive5XxErrors: 1 and maxEjectionPercent: 100: one failure ejects, and all 4 hosts may go
        assertThat(f.numbers())
                .containsEntry("consecutive_5xx", 1L)
                .containsEntry("hosts_the_cap_lets_go", 4L)
                .containsEntry("expected_requests_to_a_run", 100L)
                .containsEntry("seconds_at_rps_per_host", 1.0);
        assertThat(f.fix())
                .isEqualTo("spec:\n  healthCheck:\n    passive:\n      consecutive5XxErrors: 5   # Envoy's default\n");
    }
}
