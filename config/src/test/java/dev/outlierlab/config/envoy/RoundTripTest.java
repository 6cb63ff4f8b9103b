package dev.outlierlab.config.envoy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** scenario -> export --envoy -> read back -> the same settings, panic threshold, hosts and health checks. */
class RoundTripTest {

    private static void assertRoundTrip(Scenario s) {
        String yaml = EnvoyClusterWriter.toYaml(s);
        EnvoyCluster back =
                EnvoyConfigReader.read(yaml, "export.yaml").cluster(null).requireValid();
        assertThat(back.name()).isEqualTo(s.name());
        assertThat(back.outlierDetection()).isEqualTo(s.outlierDetection());
        assertThat(back.panicThresholdPercent()).isEqualTo(s.cluster().panicThresholdPercent());
        assertThat(back.hosts()).isEqualTo(s.cluster().hosts());
        assertThat(back.healthChecks()).isEqualTo(s.healthChecks());
        assertThat(back.problems()).isEmpty();
        Scenario again = back.toScenario(s, null);
        assertThat(again.outlierDetection()).isEqualTo(s.outlierDetection());
        assertThat(again.cluster()).isEqualTo(s.cluster());
        assertThat(again.faults()).isEqualTo(s.faults());
    }

    @Test
    void aNameWithTerminalEscapesIsEscapedInTheCommentAndKeptInTheQuotedName() {
        Scenario d = Scenario.defaults();
        String evil = "evil\u001b[2J\u001b]0;PWN\u0007";
        Scenario named = d.toBuilder().name(evil).build();
        String yaml = EnvoyClusterWriter.toYaml(named);
        assertThat(yaml)
                .doesNotContain("\u001b")
                .doesNotContain("\u0007")
                .startsWith(
                        "# Envoy cluster for scenario 'evil\\u001b[2J\\u001b]0;PWN\\u0007', written by outlier-lab.\n");
        assertRoundTrip(named);
    }

    @Test
    void defaultScenario() {
        assertRoundTrip(Scenario.defaults());
    }

    @Test
    void everySettingChangedWithHealthChecksAndNamedHosts() {
        String text = """
                name: "outbound|8080||checkout.shop.svc.cluster.local"
                cluster:
                  hosts: [checkout-a, "10.0.0.7:8080", "yes", checkout-d]
                  panic_threshold: 33.5
                faults:
                  - hosts: [checkout-a]
                    error_rate: 50
                health_checks:
                  interval: 2.5s
                  unhealthy_threshold: 4
                  healthy_threshold: 1
                outlier_detection:
                  consecutive_5xx: 3
                  interval: 250ms
                  base_ejection_time: 45s
                  max_ejection_percent: 50
                  enforcing_consecutive_5xx: 90
                  enforcing_success_rate: 0
                  success_rate_minimum_hosts: 3
                  success_rate_request_volume: 20
                  success_rate_stdev_factor: 1000
                  consecutive_gateway_failure: 2
                  enforcing_consecutive_gateway_failure: 100
                  split_external_local_origin_errors: true
                  consecutive_local_origin_failure: 7
                  enforcing_consecutive_local_origin_failure: 50
                  enforcing_local_origin_success_rate: 10
                  failure_percentage_threshold: 30
                  enforcing_failure_percentage: 100
                  enforcing_failure_percentage_local_origin: 20
                  failure_percentage_minimum_hosts: 2
                  failure_percentage_request_volume: 10
                  max_ejection_time: 600s
                  max_ejection_time_jitter: 1.5s
                  successful_active_health_check_uneject_host: false
                  always_eject_one_host: true
                """;
        Scenario s = ScenarioReader.read(text, "s.yaml", List.of()).scenario();
        assertRoundTrip(s);
        assertThat(EnvoyClusterWriter.toYaml(s))
                .contains("name: \"outbound|8080||checkout.shop.svc.cluster.local\"")
                .contains("{address: {socket_address: {address: 10.0.0.7, port_value: 8080}}}")
                .contains("{hostname: \"yes\"");
    }

    @Test
    void envoyClusterToScenarioAndBack() {
        EnvoyCluster c = Corpus.envoy("envoy/static-cluster.yaml").cluster(null);
        Scenario s = c.toScenario(Scenario.defaults(), null);
        assertThat(s.faults().get(0).hosts()).containsExactly("10.0.1.10:8080");
        assertRoundTrip(s);
    }
}
