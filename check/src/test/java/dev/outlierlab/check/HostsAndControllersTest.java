package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.istio.DestinationRuleController;
import dev.outlierlab.config.istio.TranslatedField;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierSetting;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kgateway's BackendConfigPolicy, {@code --controller}, and host counts from what a file says (Envoy Gateway
 * Backends, DNS names as a lower bound), on real files of the corpus (sources in its README) and, for the edges,
 * on small files written here.
 */
class HostsAndControllersTest {

    private static CheckReport check(String text, String file, Integer hosts, DestinationRuleController controller) {
        return CheckReport.ofFiles(file, List.of(CheckInputs.read(text, file, null, false, controller)), hosts, null);
    }

    private static CheckReport corpus(String file, Integer hosts) throws IOException {
        return check(CorpusTest.read(file), file, hosts, null);
    }

    private static List<CheckRule> rules(CheckReport r) {
        return r.findings().stream().map(Finding::rule).toList();
    }

    private static String from(CheckTarget t, String envoyField) {
        return t.translation().stream()
                .filter(f -> f.envoyField().equals(envoyField))
                .map(TranslatedField::from)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void kgatewaysOwnOutlierDetectionExampleIsTranslatedAsKgatewayDoes() throws IOException {
        // kgateway's docs: eject for an hour after one 5xx, cap 80 %, on the 2 replicas the page scales httpbin to
        CheckReport r = corpus("kgateway/outlier-detection-backendconfigpolicy.yaml", 2);
        CheckTarget t = r.targets().get(0);
        assertThat(r.targets()).hasSize(1);
        assertThat(t.name()).isEqualTo("httpbin-policy (Service httpbin)");
        assertThat(t.style()).isEqualTo(FixStyle.KGATEWAY_POLICY);
        assertThat(t.line()).isEqualTo(11);
        assertThat(t.config().consecutive5xx()).isEqualTo(1);
        assertThat(t.config().intervalNanos()).isEqualTo(2 * Durations.SECOND);
        assertThat(t.config().baseEjectionTimeNanos()).isEqualTo(3600 * Durations.SECOND);
        assertThat(t.config().maxEjectionPercent()).isEqualTo(80);
        // kgateway writes no enforcing_success_rate: Envoy's 100 leaves success rate on
        assertThat(t.config().get(OutlierSetting.ENFORCING_SUCCESS_RATE)).isEqualTo(100);
        assertThat(from(t, "outlier_detection.base_ejection_time")).isEqualTo("baseEjectionTime: 1h");
        assertThat(rules(r)).contains(Rule.HAIR_TRIGGER, Rule.LONG_EJECTION, Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
        Finding hair = r.findings().stream()
                .filter(f -> f.rule() == Rule.HAIR_TRIGGER)
                .findFirst()
                .orElseThrow();
        assertThat(hair.fix()).isEqualTo("spec:\n  outlierDetection:\n    consecutive5xx: 5   # Envoy's default\n");
    }

    @Test
    void aBackendConfigPolicyTakesTheCrdDefaultsAndCopiesWhatIsSet() {
        String text = """
                apiVersion: gateway.kgateway.dev/v1alpha1
                kind: BackendConfigPolicy
                metadata:
                  name: p
                spec:
                  targetRefs:
                  - {group: "", kind: Service, name: a}
                  - {group: gateway.kgateway.dev, kind: Backend, name: b}
                  loadBalancer:
                    healthyPanicThreshold: 0
                    roundRobin: {}
                  outlierDetection:
                    maxEjectionPercent: 0
                    splitExternalLocalOriginErrors: true
                    consecutiveLocalOriginFailure: 3
                ---
                apiVersion: gateway.kgateway.dev/v1alpha1
                kind: Backend
                metadata:
                  name: b
                spec:
                  type: Static
                  static:
                    hosts:
                    - {host: 10.0.0.1, port: 80}
                    - {host: 10.0.0.2, port: 80}
                    - {host: 10.0.0.3, port: 80}
                """;
        CheckReport r = check(text, "p.yaml", null, null);
        assertThat(r.targets()).extracting(CheckTarget::name).containsExactly("p (Service a)", "p (Backend b)");
        CheckTarget a = r.targets().get(0);
        assertThat(a.config().consecutive5xx()).isEqualTo(5);
        assertThat(a.config().intervalNanos()).isEqualTo(10 * Durations.SECOND);
        // copied as it is, unlike istiod and Envoy Gateway: Envoy then ejects nothing
        assertThat(a.config().maxEjectionPercent()).isZero();
        assertThat(a.config().splitExternalLocalOriginErrors()).isTrue();
        assertThat(a.config().consecutiveLocalOriginFailure()).isEqualTo(3);
        assertThat(a.panicThresholdPercent()).isZero();
        assertThat(from(a, "outlier_detection.consecutive_5xx")).isEqualTo("CRD default consecutive5xx: 5");
        assertThat(from(a, "outlier_detection.consecutive_local_origin_failure"))
                .contains("its translation was not in the stored kgateway source");
        assertThat(a.hosts()).isNull();
        CheckTarget b = r.targets().get(1);
        assertThat(b.hosts()).isEqualTo(3);
        assertThat(b.hostsAtLeast()).isFalse();

        assertThatThrownBy(() -> check(
                        text.replace("consecutiveLocalOriginFailure: 3", "consecutve5xx: 3"), "p.yaml", null, null))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("p.yaml:15: unknown field 'spec.outlierDetection.consecutve5xx'")
                .hasMessageContaining("did you mean consecutive5xx?");
    }

    @Test
    void aBackendConfigPolicyWithoutOutlierDetectionIsSaidToConfigureNone() throws IOException {
        CheckReport r = corpus("kgateway/backendconfigpolicy-healthcheck.yaml", null);
        assertThat(r.targets()).isEmpty();
        assertThat(r.findings()).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo(Rule.NOTHING_TO_CHECK);
            assertThat(f.message())
                    .startsWith("BackendConfigPolicy httpbin-policy, BackendConfigPolicy "
                            + "httpbin-grpc-hc-policy configure no outlier detection");
        });
    }

    @Test
    void aDnsBackendIsAtLeastOneHostAndNoExactCountFindingFiresOnIt() throws IOException {
        // the remote JWKS cluster's only backendRef is a Backend with one fqdn endpoint
        String file = "envoy-gateway/gatewayapi-securitypolicy-with-jwt-backendcluster.in.yaml";
        CheckReport r = corpus(file, null);
        CheckTarget t = r.targets().get(0);
        assertThat(t.name()).isEqualTo("policy-for-route jwt.providers[0].remoteJWKS");
        assertThat(t.hosts()).isEqualTo(1);
        assertThat(t.hostsAtLeast()).isTrue();
        assertThat(t.notes())
                .contains("at least 1 host from the backendRefs of policy-for-route "
                        + "jwt.providers[0].remoteJWKS (Backend backend-fqdn) in the same file");
        // one host exactly would be single-host-cluster; a name that may resolve to many is not
        assertThat(rules(r))
                .doesNotContain(Rule.SINGLE_HOST)
                .contains(Rule.DETECTOR_THRESHOLD_ZERO, Rule.CAP_ALLOWS_PANIC);
        // --hosts makes it exact
        assertThat(rules(corpus(file, 1))).contains(Rule.SINGLE_HOST);
    }

    @Test
    void backendRefsOfServicesAndIpBackendsAreCountedExactly() throws IOException {
        // ext-proc's four backendRefs: two Services with one ready endpoint each, two Backends with one ip each
        CheckTarget t = corpus("envoy-gateway/gatewayapi-envoyextensionpolicy-with-extproc-with-retries.in.yaml", null)
                .targets()
                .get(0);
        assertThat(t.hosts()).isEqualTo(4);
        assertThat(t.hostsAtLeast()).isFalse();
    }

    @Test
    void aUnixSocketBackendIsOneHostAndIndentedTranslatorInputsAreManifests() throws IOException {
        CheckReport r = corpus("envoy-gateway/gatewayapi-envoyproxy-tracing-backend-uds.in.yaml", null);
        CheckTarget t = r.targets().get(0);
        assertThat(t.name()).isEqualTo("test telemetry.tracing.provider");
        assertThat(t.hosts()).isEqualTo(1);
        assertThat(t.hostsAtLeast()).isFalse();
        assertThat(rules(r)).contains(Rule.SINGLE_HOST);
    }

    @Test
    void strictDnsNamesAreALowerBound() {
        String text = """
                name: search
                type: STRICT_DNS
                load_assignment:
                  cluster_name: search
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: search.internal, port_value: 80}}}
                outlier_detection: {}
                """;
        CheckReport r = check(text, "c.yaml", null, null);
        assertThat(r.targets().get(0).hosts()).isEqualTo(1);
        assertThat(r.targets().get(0).hostsAtLeast()).isTrue();
        assertThat(rules(r)).doesNotContain(Rule.SINGLE_HOST, Rule.CAP_ADMITS_NO_HOST, Rule.SUCCESS_RATE_TOO_FEW_HOSTS);
        assertThat(r.findings()).anySatisfy(f -> assertThat(f.message()).contains("at least 1 host;"));
        assertThat(rules(check(text, "c.yaml", 1, null))).contains(Rule.SINGLE_HOST);
    }

    @Test
    void aDnsServiceEntryIsALowerBoundForItsDestinationRule() {
        String text = """
                apiVersion: networking.istio.io/v1
                kind: ServiceEntry
                metadata: {name: ext}
                spec:
                  hosts: [api.example.com]
                  resolution: DNS
                  endpoints:
                  - address: a.example.com
                  - address: b.example.com
                ---
                apiVersion: networking.istio.io/v1
                kind: DestinationRule
                metadata: {name: ext}
                spec:
                  host: api.example.com
                  trafficPolicy:
                    outlierDetection: {consecutive5xxErrors: 5, maxEjectionPercent: 10}
                """;
        CheckReport r = check(text, "se.yaml", null, null);
        assertThat(r.targets().get(0).hosts()).isEqualTo(2);
        assertThat(r.targets().get(0).hostsAtLeast()).isTrue();
        // 10 % admits no host of 2, but maybe of 20: not said on a bound
        assertThat(rules(r)).doesNotContain(Rule.CAP_ADMITS_NO_HOST);
        assertThat(rules(check(text, "se.yaml", 2, null))).contains(Rule.CAP_ADMITS_NO_HOST);
    }

    @Test
    void controllerFlagDecidesAndTheReportSaysSo() throws IOException {
        // kgateway's own file: its Gateway is of class kgateway
        String text = CorpusTest.read("kgateway/setup-failover.yaml");
        CheckTarget byFile = check(text, "f.yaml", null, null).targets().get(0);
        assertThat(byFile.style()).isEqualTo(FixStyle.KGATEWAY);
        assertThat(byFile.config().get(OutlierSetting.ENFORCING_SUCCESS_RATE)).isEqualTo(100);

        CheckTarget istiod = check(text, "f.yaml", null, DestinationRuleController.ISTIOD)
                .targets()
                .get(0);
        assertThat(istiod.style()).isEqualTo(FixStyle.ISTIO);
        assertThat(istiod.config().get(OutlierSetting.ENFORCING_SUCCESS_RATE)).isZero();
        assertThat(istiod.notes())
                .contains(
                        "translated as istiod translates a DestinationRule, as --controller istiod "
                                + "says (the file's Gateway has gatewayClassName kgateway, which alone would have chosen kgateway)");

        String withoutGateway = text.substring(text.indexOf("---") + 3);
        CheckTarget kgateway = check(withoutGateway, "f.yaml", null, DestinationRuleController.KGATEWAY)
                .targets()
                .get(0);
        assertThat(kgateway.style()).isEqualTo(FixStyle.KGATEWAY);
        assertThat(kgateway.notes())
                .anySatisfy(n -> assertThat(n)
                        .startsWith("translated as kgateway translates a "
                                + "DestinationRule, as --controller kgateway says"));
        assertThat(check(withoutGateway, "f.yaml", null, null).targets().get(0).style())
                .isEqualTo(FixStyle.ISTIO);

        assertThat(DestinationRuleController.parse("KGateway", "--controller"))
                .isEqualTo(DestinationRuleController.KGATEWAY);
        assertThatThrownBy(() -> DestinationRuleController.parse("envoy-gateway", "--controller"))
                .isInstanceOf(InputException.class)
                .hasMessage("--controller: \"envoy-gateway\" is not allowed; expected istiod or kgateway (the control "
                        + "plane that translates the file's DestinationRules)");
    }
}
