package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.Corpus;
import dev.outlierlab.engine.envoy.EjectionType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each kind of input {@code check} reads, with what it takes from it. */
class InputKindsTest {

    private static CheckReport check(String text, Integer hosts) {
        return CheckReport.ofFiles("f.yaml", List.of(CheckInputs.read(text, "f.yaml", null, false)), hosts, null);
    }

    private static CheckTarget target(CheckReport r, String name) {
        return r.targets().stream()
                .filter(t -> t.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static List<String> ids(CheckReport r) {
        return r.findings().stream().map(f -> f.rule().id()).toList();
    }

    @Test
    void adminConfigDumpTakesStaticAndDynamicClustersAndCountsEdsHostsFromItsEndpoints() {
        String dump = """
                {"configs": [
                  {"@type": "type.googleapis.com/envoy.admin.v3.BootstrapConfigDump", "bootstrap": {"node": {"id": "x"}}},
                  {"@type": "type.googleapis.com/envoy.admin.v3.ClustersConfigDump",
                   "static_clusters": [{"cluster": {"@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster",
                      "name": "xds", "type": "STATIC", "load_assignment": {"cluster_name": "xds", "endpoints": [
                      {"lb_endpoints": [{"endpoint": {"address": {"socket_address": {"address": "10.0.0.9", "port_value": 18000}}}}]}]}}}],
                   "dynamic_active_clusters": [{"version_info": "1", "cluster": {
                      "@type": "type.googleapis.com/envoy.config.cluster.v3.Cluster", "name": "search", "type": "EDS",
                      "eds_cluster_config": {"eds_config": {"ads": {}}}, "outlier_detection": {}}}]},
                  {"@type": "type.googleapis.com/envoy.admin.v3.EndpointsConfigDump",
                   "dynamic_endpoint_configs": [{"endpoint_config": {
                      "@type": "type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment",
                      "cluster_name": "search", "endpoints": [{"lb_endpoints": [
                        {"endpoint": {"address": {"socket_address": {"address": "10.0.1.1", "port_value": 80}}}},
                        {"endpoint": {"address": {"socket_address": {"address": "10.0.1.2", "port_value": 80}}}},
                        {"endpoint": {"address": {"socket_address": {"address": "10.0.1.3", "port_value": 80}}}},
                        {"endpoint": {"address": {"socket_address": {"address": "10.0.1.4", "port_value": 80}}}},
                        {"endpoint": {"address": {"socket_address": {"address": "10.0.1.5", "port_value": 80}}}},
                        {"endpoint": {"address": {"socket_address": {"address": "10.0.1.6", "port_value": 80}}}}]}]}}]}
                ]}
                """;
        CheckReport r = check(dump, null);
        assertThat(r.targets()).extracting(CheckTarget::name).containsExactly("xds", "search");
        // the EDS cluster's 6 hosts come from the dump's EndpointsConfigDump: the default cap admits none of 6
        assertThat(target(r, "search").hosts()).isEqualTo(6);
        assertThat(r.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.CAP_ADMITS_NO_HOST);
            assertThat(f.numbers()).containsEntry("hosts", 6L);
        });
    }

    @Test
    void egctlDumpNestsTheClustersUnderNamespaceAndPod() throws Exception {
        CheckReport r = check(CorpusTest.read("envoy-gateway/egctl-out.cluster.yaml"), null);
        assertThat(r.targets())
                .extracting(CheckTarget::name)
                .containsExactly("xds_cluster", "default-backend-rule-0-match-0-www.example.com");
    }

    @Test
    void templatesAreNamedAndANoteWhenFoundInADirectory() {
        String helm =
                "apiVersion: networking.istio.io/v1\nkind: DestinationRule\nmetadata:\n  name: {{ .Release.Name }}\n";
        assertThatThrownBy(() -> CheckInputs.read(helm, "dr.yaml", null, false))
                .isInstanceOf(InputException.class)
                .hasMessage(
                        "dr.yaml:4: the file is a template ({{ .Release.Name }} at line 4), not what a cluster gets: "
                                + "render it first, for example with `helm template`, and check the output");
        CheckInputs.Loaded inDir = CheckInputs.read(helm, "dr.yaml", null, true);
        assertThat(inDir.targets()).isEmpty();
        assertThat(inDir.fileFindings()).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.NOTHING_TO_CHECK);
            assertThat(f.line()).isEqualTo(4);
        });
    }

    @Test
    void aManifestWithoutOutlierDetectionIsANoteAndExitZero() {
        CheckReport r = check(Corpus.text("istio/bad/only-virtualservice.yaml"), null);
        assertThat(ids(r)).containsExactly("nothing-to-check");
        assertThat(r.findings().get(0).message())
                .contains("the file holds only VirtualService, which check reads only "
                        + "for what it says about other resources")
                .contains("check reads: ")
                .doesNotContain("no resource here configures");
        assertThat(r.exitCode(Severity.WARNING)).isZero();
    }

    @Test
    void flaggerCanaryGivesThePrimaryAndCanaryDestinationRules() {
        String canary = """
                apiVersion: flagger.app/v1beta1
                kind: Canary
                metadata:
                  name: podinfo
                  namespace: test
                spec:
                  targetRef: {apiVersion: apps/v1, kind: Deployment, name: podinfo}
                  service:
                    port: 9898
                    trafficPolicy:
                      outlierDetection:
                        consecutive5xxErrors: 2
                        interval: 30s
                        baseEjectionTime: 10s
                        maxEjectionPercent: 100
                """;
        CheckReport r = check(canary, 4);
        assertThat(r.targets()).extracting(CheckTarget::name).containsExactly("podinfo-primary", "podinfo-canary");
        assertThat(target(r, "podinfo-canary").config().consecutive5xx()).isEqualTo(2);
        assertThat(target(r, "podinfo-canary").panicThresholdPercent()).isZero();
        assertThat(target(r, "podinfo-canary").style()).isEqualTo(FixStyle.FLAGGER);
        // one finding for both generated rules (same lines), said once
        Finding hair = r.findings().stream()
                .filter(f -> f.rule() == Rule.HAIR_TRIGGER)
                .findFirst()
                .orElseThrow();
        assertThat(hair.target()).isEqualTo("podinfo-primary");
        assertThat(hair.alsoAppliesTo()).containsExactly("podinfo-canary");
        assertThat(hair.fix())
                .isEqualTo("spec:\n  service:\n    trafficPolicy:\n      outlierDetection:\n"
                        + "        consecutive5xxErrors: 5   # Envoy's default\n");
        assertThat(ids(r)).contains("interval-longer-than-ejection", "panic-disabled-eject-all");
        // another provider: Flagger writes no DestinationRule
        assertThat(ids(check(canary.replace("  service:\n", "  provider: linkerd\n  service:\n"), 4)))
                .containsExactly("nothing-to-check");
    }

    @Test
    void backendTrafficPolicyDefaultsAreEnvoyGatewaysCrdDefaults() {
        String btp = """
                apiVersion: gateway.envoyproxy.io/v1alpha1
                kind: BackendTrafficPolicy
                metadata: {name: backend}
                spec:
                  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: backend}]
                  healthCheck:
                    passive: {}
                """;
        CheckTarget t = check(btp, 10).targets().get(0);
        assertThat(t.name()).isEqualTo("backend");
        // interval 3s, baseEjectionTime 30s, consecutive 5xx 5, local origin 5, cap 10
        assertThat(t.config().intervalNanos()).isEqualTo(3_000_000_000L);
        assertThat(t.config().baseEjectionTimeNanos()).isEqualTo(30_000_000_000L);
        assertThat(t.config().consecutive5xx()).isEqualTo(5);
        assertThat(t.config().consecutiveLocalOriginFailure()).isEqualTo(5);
        assertThat(t.config().maxEjectionPercent()).isEqualTo(10);
        // Envoy Gateway sends no enforcing_success_rate: Envoy's default 100 keeps success rate on
        assertThat(t.config().enforcingPercent(EjectionType.SUCCESS_RATE)).isEqualTo(100);
        assertThat(t.panicThresholdPercent()).isEqualTo(50);
        // the always-sent consecutive_local_origin_failure 5 (without split) is not reported
        assertThat(ids(check(btp, 10))).doesNotContain("local-origin-ignored");
        // without healthCheck.passive there is nothing to check
        assertThat(ids(check(btp.replace("    passive: {}\n", "    panicThreshold: 40\n"), 10)))
                .containsExactly("nothing-to-check");
    }

    @Test
    void meshCircuitBreakerWithoutDetectorsEnforcesNothing() {
        String mcb = """
                apiVersion: kuma.io/v1alpha1
                kind: MeshCircuitBreaker
                metadata: {name: backend, namespace: kuma-system}
                spec:
                  targetRef: {kind: Mesh}
                  to:
                  - targetRef: {kind: MeshService, name: backend}
                    default:
                      outlierDetection:
                        interval: 5s
                        baseEjectionTime: 30s
                """;
        CheckReport r = check(mcb, 6);
        assertThat(r.targets()).extracting(CheckTarget::name).containsExactly("backend/to[0] (MeshService backend)");
        assertThat(ids(r)).containsExactly("no-detector-enforced");
        assertThat(r.findings().get(0).fix())
                .isEqualTo(
                        "default:\n  outlierDetection:\n    detectors:\n"
                                + "      totalFailures:\n        consecutive: 5   # and consecutive_5xx above 0 (Envoy's default 5)\n");
        // disabled: no outlier detection
        assertThat(ids(check(mcb.replace("        interval: 5s\n", "        disabled: true\n"), 6)))
                .containsExactly("no-outlier-detection");
    }

    @Test
    void serviceEntryEndpointsGiveTheDestinationRulesHostCount() {
        String manifests = """
                apiVersion: networking.istio.io/v1
                kind: ServiceEntry
                metadata: {name: search}
                spec:
                  hosts: [search.example.internal]
                  resolution: STATIC
                  endpoints: [{address: 10.0.0.1}, {address: 10.0.0.2}, {address: 10.0.0.3}, {address: 10.0.0.4},
                              {address: 10.0.0.5}, {address: 10.0.0.6}]
                ---
                apiVersion: networking.istio.io/v1
                kind: DestinationRule
                metadata: {name: search}
                spec:
                  host: search.example.internal
                  trafficPolicy:
                    outlierDetection: {consecutive5xxErrors: 5, maxEjectionPercent: 10}
                """;
        CheckReport r = check(manifests, null);
        assertThat(r.targets().get(0).hosts()).isEqualTo(6);
        assertThat(r.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.CAP_ADMITS_NO_HOST);
            assertThat(f.numbers())
                    .containsEntry("hosts", 6L)
                    .containsEntry("smallest_percent_admitting_one_host", 17L);
        });
    }

    @Test
    void hardeningCases() {
        // dup-clusters.yaml: the second cluster named a is what Envoy refuses
        CheckReport dup = check(Corpus.text("hardening/dup-clusters.yaml"), null);
        assertThat(dup.findings()).anySatisfy(f -> {
            assertThat(f.rule()).isEqualTo(Rule.INVALID_CONFIG);
            assertThat(f.line()).isEqualTo(16);
            assertThat(f.message()).contains("cluster manager: duplicate cluster 'a'");
        });
        assertThat(dup.exitCode(Severity.ERROR)).isEqualTo(1);
        // empty-list.yaml: says there are no clusters
        CheckReport empty = check(Corpus.text("hardening/empty-list.yaml"), null);
        assertThat(ids(empty)).containsExactly("nothing-to-check");
        assertThat(empty.findings().get(0).message())
                .isEqualTo(
                        "the file holds no clusters (an empty list), so there " + "is no outlier detection to check");
        // enum-999.yaml: refused as Envoy's defined_only refuses it
        assertThatThrownBy(() -> check(Corpus.text("hardening/enum-999.yaml"), null))
                .hasMessageContaining(
                        "f.yaml:2: type: 999 is not a value of envoy.config.cluster.v3.Cluster.DiscoveryType");
        // dr-no-apiversion.yaml: a message, not an internal error
        assertThatThrownBy(() -> check(Corpus.text("hardening/dr-no-apiversion.yaml"), null))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("apiVersion: missing is not allowed");
    }
}
