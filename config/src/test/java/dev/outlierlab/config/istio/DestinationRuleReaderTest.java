package dev.outlierlab.config.istio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.Corpus;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DestinationRuleReaderTest {

    private static IstioConfig read(String resource, Integer port) {
        return DestinationRuleReader.read(Corpus.text(resource), resource, port);
    }

    /** The translation as "envoy_field = value <- from" lines, for field-by-field comparison. */
    private static List<String> table(IstioPolicy p) {
        List<String> rows = new ArrayList<>();
        for (TranslatedField f : p.fields()) {
            rows.add(f.envoyField() + " = " + f.value() + " <- " + f.from());
        }
        return rows;
    }

    @Test
    void istioDocumentationExampleFieldByField() {
        IstioPolicy p = read("istio/reviews-basic.yaml", null).select(null, null, null);
        assertThat(p.displayName()).isEqualTo("reviews-cb-policy");
        assertThat(p.host()).isEqualTo("reviews.prod.svc.cluster.local");
        assertThat(p.line()).isEqualTo(16);
        assertThat(table(p))
                .containsExactly(
                        "outlier_detection.consecutive_5xx = 7 <- consecutive5xxErrors: 7",
                        "outlier_detection.interval = 300s <- interval: 5m",
                        "outlier_detection.base_ejection_time = 900s <- baseEjectionTime: 15m",
                        "outlier_detection.max_ejection_percent = 10 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.enforcing_consecutive_5xx = 100 <- consecutive5xxErrors: 7 (above 0, so Istio enforces it: 100)",
                        "outlier_detection.enforcing_success_rate = 0 <- Istio always sets 0: success-rate ejection off",
                        "outlier_detection.success_rate_minimum_hosts = 5 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.success_rate_request_volume = 100 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.success_rate_stdev_factor = 1900 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.consecutive_gateway_failure = 5 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.enforcing_consecutive_gateway_failure = 0 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.split_external_local_origin_errors = false <- Envoy default (no Istio field sets it)",
                        "outlier_detection.consecutive_local_origin_failure = 5 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.enforcing_consecutive_local_origin_failure = 100 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.enforcing_local_origin_success_rate = 100 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.failure_percentage_threshold = 85 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.enforcing_failure_percentage = 0 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.enforcing_failure_percentage_local_origin = 0 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.failure_percentage_minimum_hosts = 5 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.failure_percentage_request_volume = 50 <- Envoy default (no Istio field sets it)",
                        "outlier_detection.max_ejection_time = 900s <- Envoy default: max(300s, base_ejection_time)",
                        "outlier_detection.max_ejection_time_jitter = 0s <- Envoy default (no Istio field sets it)",
                        "outlier_detection.successful_active_health_check_uneject_host = true <- Envoy default (no Istio field sets it)",
                        "outlier_detection.always_eject_one_host = false <- Envoy default (no Istio field sets it)",
                        "common_lb_config.healthy_panic_threshold = 0 <- Istio default: minHealthPercent 0 (panic mode off)");
        assertThat(p.panicThresholdPercent()).isEqualTo(0.0);
        assertThat(p.warnings()).isEmpty();
    }

    @Test
    void everyIstioFieldSet() {
        IstioPolicy p = read("istio/checkout-full.yaml", null).select("checkout", null, null);
        OutlierDetectionConfig c = p.outlierDetection();
        assertThat(table(p))
                .contains(
                        "outlier_detection.consecutive_5xx = 0 <- consecutive5xxErrors: 0",
                        "outlier_detection.enforcing_consecutive_5xx = 0 <- consecutive5xxErrors: 0 (0 turns it off: 0)",
                        "outlier_detection.consecutive_gateway_failure = 3 <- consecutiveGatewayErrors: 3",
                        "outlier_detection.enforcing_consecutive_gateway_failure = 100 <- consecutiveGatewayErrors: 3 (above 0, so Istio enforces it: 100)",
                        "outlier_detection.split_external_local_origin_errors = true <- splitExternalLocalOriginErrors: true",
                        "outlier_detection.consecutive_local_origin_failure = 4 <- consecutiveLocalOriginFailures: 4",
                        "outlier_detection.enforcing_consecutive_local_origin_failure = 100 <- consecutiveLocalOriginFailures: 4 (above 0, so Istio enforces it: 100)",
                        "outlier_detection.enforcing_local_origin_success_rate = 0 <- splitExternalLocalOriginErrors: true (Istio turns local-origin success rate off: 0)",
                        "outlier_detection.interval = 2s <- interval: 2s",
                        "outlier_detection.base_ejection_time = 90s <- baseEjectionTime: 1m30s",
                        "outlier_detection.max_ejection_percent = 50 <- maxEjectionPercent: 50",
                        "common_lb_config.healthy_panic_threshold = 30 <- minHealthPercent: 30");
        assertThat(c.intervalNanos()).isEqualTo(2 * Durations.SECOND);
        assertThat(c.maxEjectionTimeNanos()).isEqualTo(300 * Durations.SECOND);
        assertThat(p.panicThresholdPercent()).isEqualTo(30.0);
    }

    @Test
    void surprisesAreTranslatedFaithfullyAndWarned() {
        IstioPolicy p = read("istio/surprises.yaml", null).select(null, null, null);
        assertThat(p.outlierDetection().maxEjectionPercent()).isEqualTo(10);
        assertThat(p.outlierDetection().consecutive5xx()).isEqualTo(5);
        assertThat(p.outlierDetection().consecutiveLocalOriginFailure()).isEqualTo(5);
        assertThat(table(p))
                .contains(
                        "outlier_detection.max_ejection_percent = 10 <- maxEjectionPercent: 0, which Istio leaves unset: Envoy default",
                        "outlier_detection.consecutive_local_origin_failure = 5 <- consecutiveLocalOriginFailures 0, which Istio leaves unset: Envoy default",
                        "outlier_detection.enforcing_consecutive_local_origin_failure = 100 <- consecutiveLocalOriginFailures 0, which Istio leaves unset: Envoy default");
        assertThat(p.warnings()).hasSize(3);
        assertThat(p.warnings().get(0)).startsWith("maxEjectionPercent: 0 does not turn ejection off");
        assertThat(p.warnings().get(1)).contains("Envoy's defaults apply");
        assertThat(p.warnings().get(2)).startsWith("consecutiveErrors (3) is deprecated and has no effect");
    }

    @Test
    void portLevelSettingsReplaceTheRulesPolicyWithoutInheriting() {
        IstioConfig all = read("istio/multi-port-subsets.yaml", null);
        assertThat(all.policies())
                .extracting(IstioPolicy::displayName)
                .containsExactly("search", "search:9090", "search:8443", "search/v1", "search/canary");
        IstioPolicy grpc = all.select("search", null, 9090);
        assertThat(grpc.scope()).isEqualTo("spec.trafficPolicy.portLevelSettings[0]");
        assertThat(grpc.outlierDetection().maxEjectionPercent()).isEqualTo(34);
        assertThat(grpc.outlierDetection().consecutive5xx()).isEqualTo(5); // Envoy default, not the rule's 5
        assertThat(grpc.outlierDetection().baseEjectionTimeNanos()).isEqualTo(30 * Durations.SECOND);
        assertThat(grpc.outlierDetection().intervalNanos()).isEqualTo(Durations.SECOND);
        assertThat(grpc.panicThresholdPercent()).isEqualTo(50.0);
        assertThat(all.select("search", null, 8443).hasOutlierDetection()).isFalse();
        assertThat(all.select("search", "v1", null).outlierDetection().maxEjectionPercent())
                .isEqualTo(100);
        IstioPolicy canary = all.select("search", "canary", null);
        assertThat(canary.outlierDetection().consecutive5xx()).isEqualTo(2);
        assertThat(canary.outlierDetection().maxEjectionPercent()).isEqualTo(10);
        assertThat(canary.outlierDetection().maxEjectionTimeNanos()).isEqualTo(300 * Durations.SECOND);
    }

    @Test
    void aGivenPortSelectsItsSettingsForEveryCluster() {
        IstioConfig grpc = read("istio/multi-port-subsets.yaml", 9090);
        assertThat(grpc.policies())
                .extracting(IstioPolicy::displayName)
                .containsExactly("search:9090", "search/v1:9090", "search/canary:9090");
        assertThat(grpc.select("search", "v1", 9090).outlierDetection().maxEjectionPercent())
                .isEqualTo(34);
        assertThat(grpc.select("search", "canary", 9090).outlierDetection().consecutive5xx())
                .isEqualTo(2);
        IstioConfig http = read("istio/multi-port-subsets.yaml", 8080);
        assertThat(http.select("search", null, 8080).outlierDetection().maxEjectionPercent())
                .isEqualTo(100);
    }

    @Test
    void ruleWithoutOutlierDetection() {
        IstioPolicy p = read("istio/no-outlier.yaml", null).select(null, null, null);
        assertThat(p.hasOutlierDetection()).isFalse();
        assertThatThrownBy(() -> p.toScenario(Scenario.defaults(), 6))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("has no outlierDetection");
    }

    @Test
    void toScenarioUsesTheGivenHostCount() {
        IstioPolicy p = read("istio/checkout-full.yaml", null).select(null, null, null);
        var s = p.toScenario(Scenario.defaults(), 8);
        assertThat(s.cluster().size()).isEqualTo(8);
        assertThat(s.cluster().panicThresholdPercent()).isEqualTo(30.0);
        assertThat(s.outlierDetection()).isEqualTo(p.outlierDetection());
        assertThat(s.faults()).isEqualTo(Scenario.defaults().faults());
    }

    @Test
    void badInput() {
        assertThatThrownBy(() -> read("istio/bad/unknown-field.yaml", null))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("istio/bad/unknown-field.yaml:10: unknown field "
                        + "'spec.trafficPolicy.outlierDetection.maxEjectionPercentage'")
                .hasMessageContaining("did you mean maxEjectionPercent?");
        assertThatThrownBy(() -> read("istio/bad/local-without-split.yaml", null))
                .hasMessageContaining("local-without-split.yaml:9:")
                .hasMessageContaining("splitExternalLocalOriginErrors is not true; Istio rejects this DestinationRule");
        assertThatThrownBy(() -> read("istio/bad/bad-duration.yaml", null))
                .hasMessage(
                        "istio/bad/bad-duration.yaml:9: spec.trafficPolicy.outlierDetection.interval: \"10 seconds\" "
                                + "is not allowed; expected a duration such as 10s, 5m, 1h or 250ms, at least 1ms and in whole "
                                + "milliseconds (Istio rejects others)");
        assertThatThrownBy(() -> read("istio/bad/wrong-type.yaml", null))
                .hasMessageContaining(
                        "wrong-type.yaml:9: spec.trafficPolicy.outlierDetection.consecutive5xxErrors: \"lots\"");
        // a manifest without a DestinationRule reads as nothing to check (check says so); run --istio refuses it
        assertThat(read("istio/bad/only-virtualservice.yaml", null).policies()).isEmpty();
        assertThatThrownBy(
                        () -> read("istio/bad/only-virtualservice.yaml", null).select(null, null, null))
                .hasMessage(
                        "istio/bad/only-virtualservice.yaml: no DestinationRule in the file (found VirtualService)");
        assertThatThrownBy(() ->
                        DestinationRuleReader.read("kind: DestinationRule\nmetadata: {name: x}\n", "dr.yaml", null))
                .hasMessage("dr.yaml:1: apiVersion: missing is not allowed; expected one of networking.istio.io/v1, "
                        + "v1beta1 or v1alpha3");
        assertThatThrownBy(() -> DestinationRuleReader.read("\n# nothing\n", "dr.yaml", null))
                .hasMessageContaining("dr.yaml: the file is empty");
        assertThatThrownBy(() -> DestinationRuleReader.read(
                        "kind: DestinationRule\napiVersion: networking.istio.io/v2\n", "dr.yaml", null))
                .hasMessageContaining("dr.yaml:2: apiVersion: \"networking.istio.io/v2\" is not allowed");
        assertThatThrownBy(() -> read("istio/multi-port-subsets.yaml", null).select("search", null, 7000))
                .hasMessageContaining(
                        "no DestinationRule 'search' for port 7000 here; the file has: search, search:9090");
    }

    @Test
    void malformedSecondDocumentReportsTheFilesLine() {
        String text = "apiVersion: v1\nkind: Service\n---\napiVersion: networking.istio.io/v1\nkind: DestinationRule\n"
                + "spec:\n  host: a\n   bad: indent\n";
        assertThatThrownBy(() -> DestinationRuleReader.read(text, "dr.yaml", null))
                .hasMessageStartingWith("dr.yaml:8:")
                .hasMessageContaining("malformed YAML");
    }

    @Test
    void goDurations() {
        assertThat(GoDuration.parse("1h30m")).isEqualTo(5400 * Durations.SECOND);
        assertThat(GoDuration.parse("1.5s")).isEqualTo(1500 * Durations.MILLISECOND);
        assertThat(GoDuration.parse("250ms")).isEqualTo(250 * Durations.MILLISECOND);
        assertThat(GoDuration.parse("10")).isEqualTo(-1);
        assertThat(GoDuration.parse("-5s")).isEqualTo(-1);
    }
}
