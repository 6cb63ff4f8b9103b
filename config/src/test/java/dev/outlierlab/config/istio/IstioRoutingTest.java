package dev.outlierlab.config.istio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.envoy.EnvoyConfigReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@code run --istio} and {@code run --envoy} route by, from istiod's and Envoy's code paths: istiod's
 * {@code applyLoadBalancer} ({@code defaultLBAlgorithm()} is LEAST_REQUEST), {@code applyLocalityLoadBalancer}
 * (failover only with outlierDetection and locality load balancing on), the retry package's {@code DefaultPolicy} and
 * {@code ConvertPolicy}; an Envoy cluster's endpoint priorities, {@code overprovisioning_factor},
 * {@code fail_traffic_on_panic} and {@code lb_policy}.
 */
class IstioRoutingTest {
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
    private static final String ZONES = """
            duration: 120s
            cluster:
              hosts: 6
              zones: [a, a, b, b, c, c]
            traffic:
              rps: 600
              caller_zones: [a]
            faults:
              - hosts: 1
                start: 30s
                end: 120s
                error_rate: 100
                result: connect_failed
            """;

    /** A VirtualService whose one HTTP route goes to the rule's host; the route's other fields replace the marker. */
    private static final String VS_HEADER = """
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
                    host: reviews.default.svc.cluster.local
            /* route */""";

    private static RoutingSpec routing(String text) {
        return DestinationRuleReader.read(text, "dr.yaml", null)
                .select(null, null, null)
                .routing();
    }

    @Test
    void istiodRoutesLeastRequestWithFailoverAndItsDefaultRetries() {
        RoutingSpec r = routing(RULE);
        assertThat(r.lbPolicy()).isEqualTo(LbPolicy.LEAST_REQUEST);
        assertThat(r.localityFailover()).isTrue();
        assertThat(r.retries()).isEqualTo(RetrySpec.ISTIO_DEFAULT);
        assertThat(r.retries().retriableStatusCodes()).containsExactly(503);
    }

    @Test
    void noFailoverWithoutOutlierDetectionOrWithLocalityOff() {
        assertThat(routing(RULE.replace(
                                "    outlierDetection:\n      consecutive5xxErrors: 5\n"
                                        + "      maxEjectionPercent: 100\n",
                                "    loadBalancer:\n      simple: ROUND_ROBIN\n"))
                        .localityFailover())
                .isFalse();
        RoutingSpec off = routing(RULE.replace(
                "  trafficPolicy:\n",
                "  trafficPolicy:\n    loadBalancer:\n"
                        + "      simple: RANDOM\n      localityLbSetting:\n        enabled: false\n"));
        assertThat(off.localityFailover()).isFalse();
        assertThat(off.lbPolicy()).isEqualTo(LbPolicy.RANDOM);
        RoutingSpec hashed = routing(RULE.replace(
                "  trafficPolicy:\n",
                "  trafficPolicy:\n    loadBalancer:\n" + "      consistentHash:\n        httpHeaderName: x-user\n"));
        assertThat(hashed.lbPolicy()).isEqualTo(LbPolicy.RING_HASH);
        assertThat(hashed.notModelled()).anyMatch(n -> n.contains("consistentHash"));
        assertThat(hashed.retries().previousHosts()).isFalse();
    }

    @Test
    void aVirtualServicesRetriesReplaceIstiodsDefault() {
        String vs =
                VS_HEADER.replace("/* route */", "    retries:\n      attempts: 3\n      retryOn: gateway-error,500\n");
        RetrySpec r = routing(RULE + vs).retries();
        assertThat(r.numRetries()).isEqualTo(3);
        assertThat(r.retryOn()).containsExactlyInAnyOrder("gateway-error", "retriable-status-codes");
        assertThat(r.retriableStatusCodes()).containsExactly(500);
        assertThat(routing(RULE + vs.replace("attempts: 3", "attempts: 0")).retries())
                .isNull();
    }

    @Test
    void aVirtualServicesPerTryTimeoutAndRouteTimeoutBoundTheTries() {
        String vs = VS_HEADER.replace(
                "/* route */",
                "    timeout: 10s\n    retries:\n      attempts: 2\n"
                        + "      retryOn: 5xx\n      perTryTimeout: 2s\n");
        RetrySpec r = routing(RULE + vs).retries();
        assertThat(r.perTryTimeoutNanos()).isEqualTo(2_000_000_000L);
        assertThat(r.routeTimeoutNanos()).isEqualTo(10_000_000_000L);
        assertThat(r.retriesTimeout()).isTrue();
        // istiod's default route: no per-try timeout, no route timeout (Notimeout): a hanging pod is not retried
        assertThat(RetrySpec.ISTIO_DEFAULT.perTryTimeoutNanos()).isZero();
        assertThat(RetrySpec.ISTIO_DEFAULT.routeTimeoutNanos()).isZero();
        assertThat(RetrySpec.ISTIO_DEFAULT.retriesTimeout()).isFalse();
        // a route timeout alone keeps istiod's default retries, bounded by it
        RetrySpec timed = routing(RULE + VS_HEADER.replace("/* route */", "    timeout: 10s\n"))
                .retries();
        assertThat(timed).isEqualTo(RetrySpec.ISTIO_DEFAULT.withRouteTimeout(10_000_000_000L));
        assertThatThrownBy(() -> routing(RULE + vs.replace("perTryTimeout: 2s", "perTryTimeout: soon")))
                .isInstanceOf(InputException.class)
                .hasMessageContaining("retries.perTryTimeout: \"soon\" is not allowed");
    }

    @Test
    void runIstioSendsSeventyPercentToTheOtherLocalPodAfterAnEjection() {
        Scenario base = ScenarioReader.read(ZONES, "zones.yaml", List.of()).scenario();
        Scenario s = DestinationRuleReader.read(RULE, "dr.yaml", null)
                .select(null, null, null)
                .toScenario(base, 6);
        assertThat(s.routing().failsOverByZone()).isTrue();
        long[] after = new long[6];
        RunResult r = Simulation.run(s, RunOptions.DEFAULT, (nanos, host, code, result) -> {
            if (host >= 0 && nanos >= 31_000_000_000L) {
                after[host]++;
            }
        });
        assertThat(r.events())
                .anyMatch(e -> e.action() == EventAction.EJECT && e.host().equals("host-0"));
        long total = Arrays.stream(after).sum();
        // host-0 out: P0 (zone a) keeps min(100, 140 x 1 / 2) = 70 %, P1 (zones b, c) 30 %, 7.5 % per pod
        assertThat(after[1] * 100.0 / total).isCloseTo(70, within(1.5));
        assertThat(after[4] * 100.0 / total).isCloseTo(7.5, within(1.0));
        // istiod's retries: the refused requests went elsewhere, the callers saw none fail
        assertThat(r.summary().upstreamFailed()).isPositive();
        assertThat(r.summary().failed()).isZero();
    }

    @Test
    void envoyPrioritiesAreRoutedNotFlattened() {
        String cluster = """
                name: c
                type: STATIC
                lb_policy: LEAST_REQUEST
                least_request_lb_config: {choice_count: 3}
                common_lb_config:
                  healthy_panic_threshold: {value: 0}
                  zone_aware_lb_config: {fail_traffic_on_panic: true}
                outlier_detection: {max_ejection_percent: 100, enforcing_success_rate: 0}
                load_assignment:
                  cluster_name: c
                  policy: {overprovisioning_factor: 100}
                  endpoints:
                  - priority: 0
                    lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
                  - priority: 1
                    locality: {region: r, zone: z2}
                    lb_endpoints:
                    - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
                    - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
                """;
        var c = EnvoyConfigReader.read(cluster, "c.yaml").cluster(null);
        RoutingSpec r = c.routing();
        assertThat(r.lbPolicy()).isEqualTo(LbPolicy.LEAST_REQUEST);
        assertThat(r.choiceCount()).isEqualTo(3);
        assertThat(r.overprovisioningFactor()).isEqualTo(100);
        assertThat(r.failTrafficOnPanic()).isTrue();
        assertThat(r.priorities()).containsEntry("10.0.0.3:80", 1).containsEntry("10.0.0.4:80", 1);
        assertThat(r.zones()).containsEntry("10.0.0.3:80", "r/z2");
        assertThat(c.notes()).noneMatch(n -> n.contains("several priorities"));
        // host-0 fails: P0 keeps everything while both are healthy, so host-0 gets half of all requests, not a
        // quarter, and its five failures in a row come sooner than in one flattened list
        String scenario = "duration: 60s\ntraffic: {rps: 400}\nfaults:\n  - {hosts: 1, start: 10s, end: 60s, "
                + "error_rate: 100, pattern: even}\n";
        Scenario routed =
                c.toScenario(ScenarioReader.read(scenario, "s.yaml", List.of()).scenario(), null);
        Scenario flat = routed.withRouting(RoutingSpec.NONE);
        long first = firstEjection(Simulation.run(routed));
        long flatFirst = firstEjection(Simulation.run(flat));
        assertThat(first).isLessThan(flatFirst);
    }

    private static long firstEjection(RunResult r) {
        return r.events().stream()
                .filter(e -> e.action() == EventAction.EJECT)
                .mapToLong(OutlierEvent::timeNanos)
                .min()
                .orElseThrow();
    }
}
