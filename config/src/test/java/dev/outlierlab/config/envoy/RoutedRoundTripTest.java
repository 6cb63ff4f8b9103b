package dev.outlierlab.config.envoy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.LocalityWeights;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A routed scenario written as an Envoy cluster and read back: {@code lb_policy}, {@code least_request_lb_config},
 * the endpoint groups' priorities and localities, {@code overprovisioning_factor} and {@code fail_traffic_on_panic}
 * come back as they were; the route's retries, which a cluster cannot hold, are said in comments.
 */
class RoutedRoundTripTest {
    @Test
    void theBalancerPrioritiesLocalitiesAndFactorComeBack() {
        Scenario s = ScenarioReader.read("""
                        cluster:
                          hosts: 6
                          lb_policy: least_request
                          choice_count: 3
                          overprovisioning_factor: 100
                          fail_traffic_on_panic: true
                          priorities: [0, 0, 0, 0, 1, 1]
                          zones: [eu/a, eu/a, eu/b, eu/b/rack-1, us/c, us/c]
                        traffic:
                          retries: istio
                        """, "routed.yaml", List.of()).scenario();
        String yaml = EnvoyClusterWriter.toYaml(s);
        assertThat(yaml)
                .contains("lb_policy: LEAST_REQUEST\n")
                .contains("least_request_lb_config:\n  choice_count: 3\n")
                .contains("  policy:\n    overprovisioning_factor: 100\n")
                .contains("  zone_aware_lb_config:\n    fail_traffic_on_panic: true\n")
                .contains("  - locality: {region: \"us\", zone: \"c\"}\n    priority: 1\n    lb_endpoints:\n")
                .contains("# Not written here: the route's retries")
                .contains("#     retry_on: cancelled,connect-failure,refused-stream,retriable-status-codes,unavailable")
                .contains("#     num_retries: 2\n");
        EnvoyCluster back =
                EnvoyConfigReader.read(yaml, "export.yaml").cluster(null).requireValid();
        assertThat(back.hosts()).isEqualTo(s.cluster().hosts());
        RoutingSpec r = back.routing();
        assertThat(r.lbPolicy()).isEqualTo(LbPolicy.LEAST_REQUEST);
        assertThat(r.choiceCount()).isEqualTo(3);
        assertThat(r.overprovisioningFactor()).isEqualTo(100);
        assertThat(r.failTrafficOnPanic()).isTrue();
        assertThat(r.priorities()).isEqualTo(Map.of("host-4", 1, "host-5", 1));
        assertThat(r.zones())
                .isEqualTo(Map.of(
                        "host-0", "eu/a",
                        "host-1", "eu/a",
                        "host-2", "eu/b",
                        "host-3", "eu/b/rack-1",
                        "host-4", "us/c",
                        "host-5", "us/c"));
        assertThat(r.retries()).isNull();
    }

    @Test
    void aRetryPolicysTimeoutsAreReadWrittenAndSaidInTheClustersComments() {
        String text = """
                cluster:
                  hosts: 2
                traffic:
                  retries:
                    retry_on: 5xx
                    num_retries: 1
                    per_try_timeout: 2s
                    route_timeout: 10s
                """;
        Scenario s = ScenarioReader.read(text, "timeouts.yaml", List.of()).scenario();
        RetrySpec r = s.routing().retries();
        assertThat(r.perTryTimeoutNanos()).isEqualTo(2_000_000_000L);
        assertThat(r.routeTimeoutNanos()).isEqualTo(10_000_000_000L);
        assertThat(ScenarioWriter.retriesValue(r))
                .isEqualTo(Map.of(
                        "retry_on",
                        "5xx",
                        "num_retries",
                        1L,
                        "previous_hosts",
                        false,
                        "host_selection_retry_max_attempts",
                        0L,
                        "per_try_timeout",
                        "2s",
                        "route_timeout",
                        "10s"));
        assertThat(EnvoyClusterWriter.toYaml(s)).contains("#     num_retries: 1\n#     per_try_timeout: 2s\n");
        // Envoy's defaults: no per-try timeout, a route timeout of 15 s, neither written
        RetrySpec plain = ScenarioReader.read(
                        text.replace("    per_try_timeout: 2s\n    route_timeout: 10s\n", ""), "plain.yaml", List.of())
                .scenario()
                .routing()
                .retries();
        assertThat(plain.perTryTimeoutNanos()).isZero();
        assertThat(plain.routeTimeoutNanos()).isEqualTo(RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS);
        assertThat(ScenarioWriter.retriesValue(plain).toString()).doesNotContain("timeout");
        assertThatThrownBy(() -> ScenarioReader.read(text.replace("2s", "soon"), "bad.yaml", List.of()))
                .hasMessageContaining("traffic.retries.per_try_timeout");
    }

    @Test
    void localityWeightsAreWrittenAsEnvoysAndReadBack() {
        Scenario s = ScenarioReader.read("""
                        cluster:
                          hosts: 6
                          zones: [a, a, b, b, c, c]
                          locality_weights: {a: 4, b: 2}
                        """, "weighted.yaml", List.of()).scenario();
        assertThat(s.routing().weighsLocalities()).isTrue();
        assertThat(s.routing().localityWeights().weightOf("c")).isZero();
        String yaml = EnvoyClusterWriter.toYaml(s);
        assertThat(yaml)
                .contains("  locality_weighted_lb_config: {}\n")
                .contains("  - locality: {zone: \"a\"}\n    load_balancing_weight: 4\n    lb_endpoints:\n")
                .contains("  - locality: {zone: \"c\"}\n    lb_endpoints:\n");
        RoutingSpec back = EnvoyConfigReader.read(yaml, "export.yaml")
                .cluster(null)
                .requireValid()
                .routing();
        assertThat(back.localityWeights()).isEqualTo(new LocalityWeights(true, Map.of("/a", 4, "/b", 2, "/c", 0)));
        assertThat(back.notModelled()).isEmpty();
    }

    @Test
    void aWeightForAZoneNoHostIsInIsRefusedWithTheZones() {
        assertThatThrownBy(() -> ScenarioReader.read("""
                        cluster:
                          hosts: 2
                          zones: [a, b]
                          locality_weights: {a: 1, d: 2}
                        """, "weighted.yaml", List.of()))
                .hasMessageContaining("cluster.locality_weights.d")
                .hasMessageContaining("zones of cluster.zones: a, b");
    }

    @Test
    void aScenarioWithoutRoutingIsWrittenAsBefore() {
        String yaml = EnvoyClusterWriter.toYaml(Scenario.defaults());
        assertThat(yaml)
                .contains("lb_policy: ROUND_ROBIN\n")
                .contains("  endpoints:\n  - lb_endpoints:\n")
                .doesNotContain("#     retry_on")
                .doesNotContain("priority:")
                .doesNotContain("locality:");
    }
}
