package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.config.istio.TranslatedField;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kinds that carry outlier detection besides Envoy clusters and DestinationRules, each on a real file of the
 * corpus (sources in its README): what is read from it and what it gives.
 */
class ControlPlaneKindsTest {

    private static CheckReport check(String file, Integer hosts) throws IOException {
        return CheckReport.ofFiles(
                file, List.of(CheckInputs.read(CorpusTest.read(file), file, null, false)), hosts, null);
    }

    private static String field(CheckTarget t, String envoyField) {
        return t.translation().stream()
                .filter(f -> f.envoyField().equals(envoyField))
                .map(TranslatedField::value)
                .findFirst()
                .orElseThrow();
    }

    private static List<Finding> of(CheckReport r, Rule rule) {
        return r.findings().stream().filter(f -> f.rule() == rule).toList();
    }

    @Test
    void ciliumClusterwideEnvoyConfigsClusterIsCheckedAsAnEnvoyCluster() throws IOException {
        CheckReport r = check("cilium/envoy-circuit-breaker.yaml", 4);
        assertThat(r.targets()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("default/echo-service");
            assertThat(t.line()).isEqualTo(51);
            assertThat(t.config().splitExternalLocalOriginErrors()).isTrue();
            assertThat(t.config().consecutiveLocalOriginFailure()).isEqualTo(2);
        });
        // Envoy's default cap of 10 % admits none of 4 hosts
        assertThat(of(r, Rule.CAP_ADMITS_NO_HOST))
                .singleElement()
                .satisfies(f -> assertThat(f.numbers()).containsEntry("smallest_percent_admitting_one_host", 25L));
    }

    @Test
    void aCiliumRouteThatRetriesOn5xxFeedsTheConsecutiveCounters() throws IOException {
        CheckReport r = check("cilium/envoy-traffic-management-test.yaml", null);
        assertThat(r.targets())
                .extracting(CheckTarget::name)
                .containsExactly("default/echo-service-1", "default/echo-service-2");
        assertThat(of(r, Rule.RETRIES_FEED_CONSECUTIVE)).singleElement().satisfies(f -> {
            assertThat(f.line()).isEqualTo(39);
            assertThat(f.numbers()).containsEntry("retries", 3L).containsEntry("failures_per_failed_request", 4L);
            assertThat(f.message()).contains("retries 3 times on 5xx");
        });
    }

    @Test
    void envoyGatewayBackendSettingsOfExtensionSecurityAndProxyPoliciesAreTranslated() throws IOException {
        CheckTarget extProc = check(
                        "envoy-gateway/gatewayapi-envoyextensionpolicy-with-extproc-with-retries.in.yaml", null)
                .targets()
                .get(0);
        assertThat(extProc.name()).isEqualTo("policy-for-http-route extProc[0]");
        assertThat(extProc.line()).isEqualTo(247);
        assertThat(field(extProc, "outlier_detection.consecutive_gateway_failure"))
                .isEqualTo("4");
        assertThat(field(extProc, "outlier_detection.enforcing_consecutive_gateway_failure"))
                .isEqualTo("100");
        assertThat(field(extProc, "outlier_detection.interval")).isEqualTo("5s");

        CheckTarget tracing = check("envoy-gateway/gatewayapi-envoyproxy-tracing-backend.in.yaml", null)
                .targets()
                .get(0);
        assertThat(tracing.name()).isEqualTo("test telemetry.tracing.provider");
        assertThat(tracing.line()).isEqualTo(29);

        CheckReport jwks = check("envoy-gateway/gatewayapi-securitypolicy-with-jwt-backendsettings.in.yaml", null);
        assertThat(jwks.targets()).singleElement().satisfies(t -> {
            assertThat(t.name()).isEqualTo("policy-for-route jwt.providers[0].remoteJWKS");
            assertThat(t.config().baseEjectionTimeNanos()).isEqualTo(160_000_000_000L);
            assertThat(t.healthChecks()).isNotNull();
        });
        // consecutiveGatewayErrors: 0 is a dead detector Envoy Gateway still enforces
        assertThat(of(jwks, Rule.DETECTOR_THRESHOLD_ZERO)).hasSize(1);
    }

    @Test
    void admiralsOutlierDetectionBecomesTheDestinationRuleAdmiralWrites() throws IOException {
        CheckReport r = check("admiral/od.yaml", null);
        CheckTarget t = r.targets().get(0);
        assertThat(t.name()).isEqualTo("sample-configuration");
        assertThat(t.style().translatedBy()).isEqualTo("Admiral and istiod");
        assertThat(field(t, "outlier_detection.consecutive_gateway_failure")).isEqualTo("10");
        assertThat(field(t, "outlier_detection.interval")).isEqualTo("28s");
        assertThat(field(t, "outlier_detection.base_ejection_time")).isEqualTo("180s");
        assertThat(field(t, "outlier_detection.max_ejection_percent")).isEqualTo("100");
        assertThat(field(t, "outlier_detection.enforcing_consecutive_5xx")).isEqualTo("0");
        assertThat(of(r, Rule.PANIC_DISABLED_EJECT_ALL)).hasSize(1);
    }

    @Test
    void aDestinationRuleUnderAKgatewayGatewayIsTranslatedAsKgatewayDoesWithHostsFromTheEndpointSlice()
            throws IOException {
        CheckReport r = check("kgateway/setup-failover.yaml", null);
        CheckTarget t = r.targets().get(0);
        assertThat(t.style().translatedBy()).isEqualTo("kgateway");
        assertThat(t.hosts()).isEqualTo(4);
        // kgateway leaves success rate on, istiod turns it off
        assertThat(field(t, "outlier_detection.enforcing_success_rate")).isEqualTo("100");
        assertThat(of(r, Rule.SUCCESS_RATE_TOO_FEW_HOSTS)).hasSize(1);
        assertThat(t.notes())
                .anyMatch(n -> n.startsWith("4 hosts from the EndpointSlices of Service reviews.gwtest"))
                .anyMatch(n -> n.contains("gatewayClassName kgateway"));
        // baseEjectionTime 15m: a note (a warning from an hour)
        assertThat(of(r, Rule.LONG_EJECTION)).singleElement().satisfies(f -> {
            assertThat(f.severity()).isEqualTo(Severity.NOTE);
            assertThat(f.numbers())
                    .containsEntry("base_ejection_time_seconds", 900.0)
                    .containsEntry("hosts_that_can_be_out", 0L);
        });

        String withoutGateway =
                CorpusTest.read("kgateway/setup-failover.yaml").replaceFirst("(?s)^kind: Gateway.*?---\n", "");
        CheckReport istiod = CheckReport.ofFiles(
                "f.yaml", List.of(CheckInputs.read(withoutGateway, "f.yaml", null, false)), null, null);
        assertThat(istiod.targets().get(0).style().translatedBy()).isEqualTo("istiod");
        assertThat(field(istiod.targets().get(0), "outlier_detection.enforcing_success_rate"))
                .isEqualTo("0");
    }

    @Test
    void localityFailoverWithoutOutlierDetectionIsAWarning() throws IOException {
        String text = CorpusTest.read("kgateway/setup-failover.yaml").replace("""
                    outlierDetection:
                      consecutive5xxErrors: 7
                      interval: 5m
                      baseEjectionTime: 15m
                """, "");
        CheckReport r =
                CheckReport.ofFiles("f.yaml", List.of(CheckInputs.read(text, "f.yaml", null, false)), null, null);
        assertThat(of(r, Rule.LOCALITY_FAILOVER_NEEDS_OUTLIER_DETECTION))
                .singleElement()
                .satisfies(f -> {
                    assertThat(f.severity()).isEqualTo(Severity.WARNING);
                    assertThat(f.line()).isEqualTo(108);
                    assertThat(f.fix()).contains("outlierDetection:");
                });
    }
}
