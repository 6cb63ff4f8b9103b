package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What check must read and what it must refuse, at the edges the issue found: templates inside data, v2
 * clusters, typos of outlier keys, files that are not configuration, kinds it does not read, huge numbers,
 * long lines, and findings that must not fire.
 */
class ReadingEdgesTest {

    private static CheckReport check(String text, Integer hosts) {
        return CheckReport.ofFiles("f.yaml", List.of(CheckInputs.read(text, "f.yaml", null, false)), hosts, null);
    }

    private static List<String> ids(CheckReport r) {
        return r.findings().stream().map(f -> f.rule().id()).distinct().toList();
    }

    private static final String RULE = """
            apiVersion: networking.istio.io/v1
            kind: DestinationRule
            metadata: {name: reviews}
            spec:
              host: reviews
              trafficPolicy:
                outlierDetection:
                  consecutive5xxErrors: 5
            """;

    @Test
    void aTemplateInsideAConfigMapsDataIsNotATemplateButOneInARuleIs() {
        String manifest = """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: istio-sidecar-injector}
                data:
                  config: |-
                    templates:
                      sidecar: |
                        {{- if .Values.global.proxy.resources }}
                        resources: {{ toYaml .Values.global.proxy.resources }}
                        {{- end }}
                ---
                """ + RULE;
        CheckReport r = check(manifest, 6);
        assertThat(r.targets()).extracting(CheckTarget::name).containsExactly("reviews");
        String templated = RULE.replace("consecutive5xxErrors: 5", "consecutive5xxErrors: {{ .Values.errors }}");
        assertThatThrownBy(() -> check(templated, 6))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("f.yaml:8: the file is a template ({{ .Values.errors }} at line 8)");
    }

    @Test
    void aV2ClusterInAConfigDumpIsReadAsV3WithANote() {
        String dump = """
                {"configs": [{"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump",
                  "static_clusters": [{"cluster": {"@type": "type.googleapis.com/envoy.api.v2.Cluster",
                    "name": "zipkin", "type": "STRICT_DNS", "connect_timeout": "1s",
                    "hosts": [{"socket_address": {"address": "zipkin", "port_value": 9411}}]}}],
                  "dynamic_active_clusters": [{"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
                    "name": "search", "type": "EDS", "eds_cluster_config": {"eds_config": {"ads": {}}},
                    "outlier_detection": {"max_ejection_percent": 0}}}]}]}
                """;
        CheckReport r = check(dump, 6);
        assertThat(r.targets()).extracting(CheckTarget::name).containsExactly("zipkin", "search");
        assertThat(r.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.NOT_MODELLED);
            assertThat(f.message())
                    .contains("('zipkin') is an envoy.api.v2.Cluster")
                    .contains("not read: hosts");
        });
        // the error the refusal used to hide: a cap of 0 admits no host
        assertThat(r.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.CAP_ADMITS_NO_HOST);
            assertThat(f.severity()).isEqualTo(Severity.ERROR);
            assertThat(f.target()).isEqualTo("search");
        });
    }

    @Test
    void aMisspeltOutlierKeyIsAnErrorWithTheRightName() {
        assertThatThrownBy(
                        () -> check("name: search\nconnect_timeout: 1s\noutlier_detecton:\n  consecutive_5xx: 3\n", 6))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("unknown field 'outlier_detecton'; did you mean outlier_detection?");
        assertThatThrownBy(() -> check("name: search\noutlierDetecton: {}\n", 6))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("did you mean outlierDetection?");
        assertThatThrownBy(() -> check(RULE.replace("outlierDetection:", "outlierDetecton:"), 6))
                .isInstanceOf(InputException.class)
                .hasMessageContaining(
                        "unknown field 'spec.trafficPolicy.outlierDetecton'; did you mean outlierDetection?");
    }

    @Test
    void aFileThatIsNotConfigurationIsNamedByWhatWasFound() {
        String values = "replicaCount: 2\nimage:\n  repository: nginx\nname: web\nservice:\n  port: 80\n";
        assertThatThrownBy(() -> check(values, null))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("f.yaml:1: not Envoy configuration: found a mapping with top-level keys "
                        + "replicaCount, image, name, service, of which only 1 is a field of an Envoy Cluster")
                .hasMessageContaining("check reads: Envoy configuration")
                .hasMessageContaining("DestinationRule")
                .hasMessageContaining("CiliumEnvoyConfig");
    }

    @Test
    void aKindThatIsNotReadIsSaidToBeNotReadNeverToHaveNoOutlierDetection() {
        // Gloo Edge's Upstream (gloo.solo.io/v1) carries outlierDetection and is not read
        String upstream = """
                apiVersion: gloo.solo.io/v1
                kind: Upstream
                metadata: {name: my-upstream}
                spec:
                  kube: {serviceName: httpbin, serviceNamespace: default, servicePort: 8000}
                  outlierDetection:
                    consecutive5xx: 3
                """;
        CheckReport r = check(upstream, null);
        assertThat(ids(r)).containsExactly("kind-not-read", "nothing-to-check");
        assertThat(r.findings().get(0).message())
                .isEqualTo("Upstream my-upstream is not read: its outlier " + "settings (line 7) are not checked");
        assertThat(r.findings().get(1).message())
                .startsWith("Upstream is not read: nothing to check here")
                .doesNotContain("no resource");
    }

    @Test
    void aHugeExponentIsRefusedAtOnceAndAKumaFactorOfOneIsNotZero() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertThatThrownBy(() -> check(
                            "name: a\nconnect_timeout: 1s\noutlier_detection:\n  consecutive_5xx: 1e100000000\n", 6))
                    .isInstanceOf(InputException.class)
                    .hasMessageContaining("f.yaml:4: outlier_detection.consecutive_5xx: " + "1E+100000000")
                    .hasMessageContaining("from 0 to 4294967295");
            String kuma = """
                    apiVersion: kuma.io/v1alpha1
                    kind: MeshCircuitBreaker
                    metadata: {name: x}
                    spec:
                      to:
                      - targetRef: {kind: Mesh}
                        default:
                          outlierDetection:
                            detectors:
                              successRate:
                                standardDeviationFactor: 1e100000000
                    """;
            assertThatThrownBy(() -> check(kuma, 6))
                    .isInstanceOf(InputException.class)
                    .hasMessageContaining(
                            "f.yaml:11: spec.to[0].default.outlierDetection.detectors.successRate."
                                    + "standardDeviationFactor: 1E+100000000 is not allowed; expected a factor from 0 to 4294967.295");
        });
    }

    @Test
    void aMinifiedJsonLineOverQuarterOfAMegabyteIsReadAndAHugeValueIsNot() {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 3000; i++) {
            json.append(i == 0 ? "" : ",")
                    .append("{\"name\":\"c")
                    .append(i)
                    .append("\",\"connect_timeout\":\"1s\",")
                    .append("\"outlier_detection\":{\"consecutive_5xx\":3,\"max_ejection_percent\":34,")
                    .append("\"interval\":\"10s\",\"base_ejection_time\":\"30s\"}}");
        }
        json.append("]");
        assertThat(json.length()).isGreaterThan(256 * 1024);
        CheckReport r = check(json.toString(), 6);
        assertThat(r.targets()).hasSize(3000);
        String huge = "name: \"" + "x".repeat(300 * 1024) + "\"\n";
        assertThatThrownBy(() -> check(huge, 6))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("line 1 is longer than 262,144 characters");
    }

    @Test
    void theDoubleOfferNeedsBothDetectorsToBeAbleToEject() {
        String both = "name: a\nconnect_timeout: 1s\noutlier_detection:\n  enforcing_failure_percentage: 100\n";
        assertThat(ids(check(both, 6))).contains("success-rate-failure-percentage-double-offer");
        // a factor success rate can never reach, with or without a host count
        String unreachable = both + "  success_rate_stdev_factor: 1900000\n";
        assertThat(ids(check(unreachable, 6))).doesNotContain("success-rate-failure-percentage-double-offer");
        assertThat(ids(check(unreachable, null))).doesNotContain("success-rate-failure-percentage-double-offer");
        assertThat(check(unreachable, null).findings())
                .filteredOn(f -> f.rule() == Rule.CONSECUTIVE_5XX_MISSES_PARTIAL)
                .allSatisfy(f -> assertThat(f.message()).doesNotContain("success rate can eject"));
        // fewer hosts than success rate's minimum of 5
        assertThat(ids(check(both, 4))).doesNotContain("success-rate-failure-percentage-double-offer");
    }

    @Test
    void longEjectionsAreANoteFromTenMinutesAndAWarningFromAnHour() {
        String base =
                "name: a\nconnect_timeout: 1s\noutlier_detection:\n  max_ejection_percent: 34\n  base_ejection_time: ";
        assertThat(ids(check(base + "300s\n", 6))).doesNotContain("long-ejection");
        Finding hours = check(base + "14400s\n", 6).findings().stream()
                .filter(f -> f.rule() == Rule.LONG_EJECTION)
                .findFirst()
                .orElseThrow();
        assertThat(hours.severity()).isEqualTo(Severity.WARNING);
        assertThat(hours.numbers())
                .containsEntry("base_ejection_time_seconds", 14400.0)
                .containsEntry("hosts_that_can_be_out", 2L);
        assertThat(hours.message()).contains("base_ejection_time 14400s (4 h)").contains("2 hosts (34 % of 6)");
    }

    @Test
    void aDeploymentsReplicasAreTheHostCountOfTheServiceItBacks() {
        String manifest = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: reviews-v1, namespace: shop}
                spec:
                  replicas: 3
                  template:
                    metadata:
                      labels: {app: reviews, version: v1}
                ---
                apiVersion: v1
                kind: Service
                metadata: {name: reviews, namespace: shop}
                spec:
                  selector: {app: reviews}
                ---
                """ + RULE.replace("metadata: {name: reviews}", "metadata: {name: reviews, namespace: shop}");
        CheckTarget t = check(manifest, null).targets().get(0);
        assertThat(t.hosts()).isEqualTo(3);
        assertThat(t.notes())
                .anyMatch(n -> n.equals("3 hosts from the replicas of Deployment reviews-v1, which Service "
                        + "reviews.shop selects, in the same file"));
    }

    @Test
    void aVirtualServiceThatRetriesOn5xxBesideARuleWithOutlierDetectionIsANote() {
        String manifest = RULE + """
                ---
                apiVersion: networking.istio.io/v1
                kind: VirtualService
                metadata: {name: reviews}
                spec:
                  hosts: [reviews]
                  http:
                  - route:
                    - destination: {host: reviews}
                    retries:
                      attempts: 2
                      retryOn: gateway-error,connect-failure
                """;
        Finding f = check(manifest, 6).findings().stream()
                .filter(x -> x.rule() == Rule.RETRIES_FEED_CONSECUTIVE)
                .findFirst()
                .orElseThrow();
        assertThat(f.line()).isEqualTo(18);
        assertThat(f.numbers()).containsEntry("retries", 2L).containsEntry("failures_per_failed_request", 3L);
        assertThat(f.message())
                .startsWith("reviews spec.http[0].retries retries 2 times on gateway-error,connect-failure");
        // retrying only on connection failures feeds no 5xx counter as such: no note
        assertThat(ids(check(manifest.replace("gateway-error,connect-failure", "connect-failure"), 6)))
                .doesNotContain("retries-feed-consecutive-counter");
    }

    @Test
    void aNamespacedCiliumEnvoyConfigIsReadAsTheClusterwideOne() throws IOException {
        String text = CorpusTest.read("cilium/envoy-circuit-breaker.yaml")
                .replace("kind: CiliumClusterwideEnvoyConfig", "kind: CiliumEnvoyConfig");
        assertThat(check(text, 6).targets()).extracting(CheckTarget::name).containsExactly("default/echo-service");
    }
}
