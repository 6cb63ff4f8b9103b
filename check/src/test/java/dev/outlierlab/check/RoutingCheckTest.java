package dev.outlierlab.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The routing findings, from istiod's code path: {@code applyLocalityFailover} (priorities by zone when the rule has
 * outlierDetection), Envoy's {@code recalculatePerPriorityState} for the shares, istiod's {@code DefaultPolicy}
 * retries, and {@code fail_traffic_on_panic} and {@code overprovisioning_factor} in the panic finding.
 */
class RoutingCheckTest {
    private static final String RULE = """
            apiVersion: networking.istio.io/v1
            kind: DestinationRule
            metadata:
              name: reviews
            spec:
              host: reviews
              trafficPolicy:
                outlierDetection:
                  consecutive5xxErrors: 5
                  maxEjectionPercent: 100
            """;

    private static List<Finding> check(String text, Integer hosts) {
        return CheckReport.of("c.yaml", CheckTargets.read(text, "c.yaml", null), hosts, null)
                .findings();
    }

    private static Finding only(List<Finding> findings, Rule rule) {
        List<Finding> f = findings.stream().filter(x -> x.rule() == rule).toList();
        assertThat(f)
                .as("findings %s", findings.stream().map(x -> x.rule().id()).toList())
                .hasSize(1);
        return f.get(0);
    }

    @Test
    void istiodsLocalityFailoverKeepsSeventyPercentInTheCallersZone() {
        Finding f = only(check(RULE, 6), Rule.ISTIO_LOCALITY_FAILOVER);
        // two of six pods in the caller's zone: min(100, 140 x 1 / 2) = 70 % stays, 30 % spills over 4 pods
        assertThat(f.numbers())
                .containsEntry("local_priority_load_after_one_ejection", 70L)
                .containsEntry("spill_over_percent", 30L);
        assertThat(f.message()).contains("70 %").contains("7.5 % to each of their 4 pods");
    }

    @Test
    void noFailoverWithoutOutlierDetectionOrWithLocalityLbOff() {
        String off = RULE.replace(
                "    outlierDetection:",
                "    loadBalancer:\n      localityLbSetting:\n" + "        enabled: false\n    outlierDetection:");
        assertThat(check(off, 6)).noneMatch(x -> x.rule() == Rule.ISTIO_LOCALITY_FAILOVER);
    }

    @Test
    void istiodsDefaultRetriesAreSaid() {
        Finding f = only(check(RULE, 6), Rule.ROUTE_RETRIES_HIDE_FAILURES);
        assertThat(f.message()).contains("2 retries").contains("answers 503").contains("another host");
    }

    /** A VirtualService for the rule's host with {@code route} (YAML lines under the HTTP route). */
    private static String virtualService(String route) {
        return """
                ---
                apiVersion: networking.istio.io/v1
                kind: VirtualService
                metadata:
                  name: reviews
                spec:
                  hosts: [reviews]
                  http:
                  - route:
                    - destination:
                        host: reviews
                """ + route;
    }

    @Test
    void istiodsDefaultRetriesDoNotHideTimeouts() {
        // no per_try_timeout and no route timeout: a host that does not answer holds its request, never retried
        Finding f = only(check(RULE, 6), Rule.ROUTE_RETRIES_HIDE_FAILURES);
        assertThat(f.message())
                .contains("refuses (connect failure) or answers 503 is retried")
                .contains("Timeouts are not hidden: with no per_try_timeout a host that does not answer holds the "
                        + "request until its caller gives up (the route has no timeout), and no retry is made.")
                .doesNotContain("Timeouts are hidden too");
        assertThat(f.numbers()).containsEntry("timeouts_retried", false);
    }

    @Test
    void aPerTryTimeoutShorterThanTheRouteTimeoutHidesTimeouts() {
        String vs = virtualService("""
                    timeout: 10s
                    retries:
                      attempts: 2
                      retryOn: 5xx
                      perTryTimeout: 2s
                """);
        Finding f = only(check(RULE + vs, 6), Rule.ROUTE_RETRIES_HIDE_FAILURES);
        assertThat(f.message())
                .contains("refuses (connect failure) or answers 503 or does not answer within the per-try timeout"
                        + " is retried on another host")
                .contains("Timeouts are hidden too: per_try_timeout 2s (the route's timeout is 10s) resets a try"
                        + " that does not answer and it is retried, each such try costing its caller 2s of waiting.");
        assertThat(f.numbers()).containsEntry("timeouts_retried", true);
    }

    @Test
    void aPerTryTimeoutNotShorterThanTheRouteTimeoutOrWithoutAResetConditionHidesNoTimeout() {
        String longTry = virtualService("""
                    timeout: 2s
                    retries:
                      attempts: 2
                      retryOn: 5xx
                      perTryTimeout: 3s
                """);
        assertThat(only(check(RULE + longTry, 6), Rule.ROUTE_RETRIES_HIDE_FAILURES)
                        .message())
                .contains("Timeouts are not hidden: per_try_timeout 3s is not shorter than the route's timeout, 2s, so"
                        + " Envoy drops it and the route's timeout answers 504 with no retry.");
        String statusOnly = virtualService("""
                    retries:
                      attempts: 2
                      retryOn: connect-failure,503
                      perTryTimeout: 2s
                """);
        Finding f = only(check(RULE + statusOnly, 6), Rule.ROUTE_RETRIES_HIDE_FAILURES);
        assertThat(f.message())
                .contains("Timeouts are not hidden: per_try_timeout 2s resets a try that does not answer, but retry_on"
                        + " has none of reset, 5xx and gateway-error, which retry that reset.");
        assertThat(f.numbers()).containsEntry("timeouts_retried", false);
    }

    @Test
    void failTrafficOnPanicChangesWhatPanicDoes() {
        String cluster = """
                name: c
                type: STATIC
                common_lb_config:
                  healthy_panic_threshold: {value: 50}
                  zone_aware_lb_config: {fail_traffic_on_panic: true}
                outlier_detection: {max_ejection_percent: 100}
                load_assignment:
                  cluster_name: c
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
                """;
        assertThat(only(check(cluster, null), Rule.CAP_ALLOWS_PANIC).message())
                .contains("routes to no host")
                .doesNotContain("sends traffic to every host");
    }

    @Test
    void anOverprovisioningFactorOfOneHundredPanicsSooner() {
        // 6 hosts, threshold 85: with 140 one ejection keeps availability 100 (no panic, and two give 66.7 % < 85);
        // with 100, one ejection already gives 83 < 100 and 83.3 % < 85: panic after the first
        String cluster = """
                name: c
                type: STATIC
                common_lb_config: {healthy_panic_threshold: {value: 85}}
                outlier_detection: {max_ejection_percent: 100}
                load_assignment:
                  cluster_name: c
                  policy: {overprovisioning_factor: 100}
                  endpoints:
                  - lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.5, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.6, port_value: 80}}}
                """;
        assertThat(only(check(cluster, null), Rule.CAP_ALLOWS_PANIC).numbers())
                .containsEntry("ejections_that_trigger_panic", 1L);
        assertThat(only(
                                check(cluster.replace("  policy: {overprovisioning_factor: 100}\n", ""), null),
                                Rule.CAP_ALLOWS_PANIC)
                        .numbers())
                .containsEntry("ejections_that_trigger_panic", 2L);
    }

    @Test
    void ringHashIsSaidNotModelled() {
        String cluster = """
                name: c
                type: STATIC
                lb_policy: RING_HASH
                outlier_detection: {}
                """;
        assertThat(check(cluster, 6))
                .anyMatch(x ->
                        x.rule() == Rule.NOT_MODELLED && x.message().contains("lb_policy RING_HASH is not modelled"));
    }
}
