package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.MS;
import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.config;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What Envoy's and istiod's route retries make the callers wait: 10 requests a second for 60 s (600 requests) round
 * robin over the hosts, detection off, the failing hosts failing every request. Envoy's round robin index moves on for a
 * retry too ({@code chooseHost} on the same balancer): with two hosts and host-0 failing, request 0 tries host-0 then
 * host-1, and request 1 starts again at host-0, so every request's first try is host-0's.
 */
class RoutedRetryWaitTest {
    private static final RetrySpec ON_5XX = retry(Set.of("5xx"), 1, 2 * S, RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS);

    private static RetrySpec retry(Set<String> on, int retries, long perTry, long route) {
        return new RetrySpec(on, retries, List.of(), false, 0, "test", perTry, route);
    }

    private static FaultSpec failing(List<String> hosts, FaultResult result, int status, long latency) {
        return FaultSpec.builder()
                .hosts(hosts)
                .window(0, 60 * S)
                .errorRatePpm(1_000_000)
                .status(status)
                .result(result)
                .latencyNanos(latency)
                .pattern(FaultPattern.EVEN)
                .build();
    }

    private static RunSummary run(int hosts, FaultSpec fault, RetrySpec retry) {
        Scenario s = Scenario.builder()
                .name("wait")
                .durationNanos(60 * S)
                .seed(1)
                .cluster(ClusterSpec.ofCount(hosts, 0))
                .traffic(new TrafficSpec(10))
                .faults(List.of(fault))
                .outlierDetection(config(
                        OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 0L,
                        OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, 0L,
                        OutlierSetting.ENFORCING_SUCCESS_RATE, 0L))
                .routing(RoutingSpec.NONE.withRetries(retry))
                .build();
        return Simulation.run(s).summary();
    }

    @Test
    void aTimedOutTryRetriedOnAnotherHostWaitsThePerTryTimeout() {
        RunSummary r = run(2, failing(List.of("host-0"), FaultResult.TIMEOUT, 504, 0), ON_5XX);
        // every request times out on host-0 after 2 s and is answered by host-1
        assertThat(r.requests()).isEqualTo(600);
        assertThat(r.failed()).isZero();
        assertThat(r.upstreamAttempts()).isEqualTo(1200);
        assertThat(r.slowRequests()).isEqualTo(600);
        assertThat(r.slowNanos()).isEqualTo(600 * 2 * S);
    }

    @Test
    void withoutAPerTryTimeoutTheRoutesTimeoutEndsTheRequestUnretried() {
        // Filter::onResponseTimeout: the route's 15 s answer 504 and no retry; the round robin then alternates
        RunSummary none = run(
                2,
                failing(List.of("host-0"), FaultResult.TIMEOUT, 504, 0),
                retry(Set.of("5xx"), 1, 0, RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS));
        assertThat(none.failed()).isEqualTo(300);
        assertThat(none.slowRequests()).isZero();
        // a per-try timeout not shorter than the route's is dropped (FilterUtility::finalTimeout)
        RunSummary longer = run(
                2,
                failing(List.of("host-0"), FaultResult.TIMEOUT, 504, 0),
                retry(Set.of("5xx"), 1, 20 * S, RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS));
        assertThat(longer).isEqualTo(none);
        // retriable-status-codes [504] does not cover a per-try timeout: wouldRetryFromReset reads reset, 5xx,
        // gateway-error
        RunSummary codes = run(
                2,
                failing(List.of("host-0"), FaultResult.TIMEOUT, 504, 0),
                new RetrySpec(
                        Set.of("retriable-status-codes"),
                        1,
                        List.of(504),
                        false,
                        0,
                        "test",
                        2 * S,
                        RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS));
        assertThat(codes.failed()).isEqualTo(300);
        assertThat(codes.slowRequests()).isZero();
    }

    @Test
    void theRoutesTimeoutBoundsTheTriesInAll() {
        // hosts 0 and 1 time out, host-2 answers; tries of 4 s: every request goes 0, 1, 2 and waits 8 s
        FaultSpec two = failing(List.of("host-0", "host-1"), FaultResult.TIMEOUT, 504, 0);
        RunSummary within = run(3, two, retry(Set.of("reset"), 5, 4 * S, 10 * S));
        assertThat(within.failed()).isZero();
        assertThat(within.slowRequests()).isEqualTo(600);
        assertThat(within.slowNanos()).isEqualTo(600 * 8 * S);
        // a route timeout of 6 s fires during the second try: that request fails, and the next starts at host-2
        RunSummary cut = run(3, two, retry(Set.of("reset"), 5, 4 * S, 6 * S));
        assertThat(cut.failed()).isEqualTo(300);
        assertThat(cut.slowRequests()).isZero();
        assertThat(cut.upstreamAttempts()).isEqualTo(900);
    }

    @Test
    void aRetried5xxWaitsItsLatencyUpToThePerTryTimeoutAndARefusalNothing() {
        RunSummary slow503 = run(2, failing(List.of("host-0"), null, 503, 1 * S), retry(Set.of("5xx"), 1, 0, 15 * S));
        assertThat(slow503.failed()).isZero();
        assertThat(slow503.slowRequests()).isEqualTo(600);
        assertThat(slow503.slowNanos()).isEqualTo(600 * S);
        // slower than a per-try timeout of 500 ms: reset at 500 ms and retried as a reset
        RunSummary cut =
                run(2, failing(List.of("host-0"), null, 503, 1 * S), retry(Set.of("5xx"), 1, 500 * MS, 15 * S));
        assertThat(cut.slowRequests()).isEqualTo(600);
        assertThat(cut.slowNanos()).isEqualTo(600 * 500 * MS);
        RunSummary refused = run(2, failing(List.of("host-0"), FaultResult.CONNECT_FAILED, 503, 0), ON_5XX);
        assertThat(refused.failed()).isZero();
        assertThat(refused.upstreamAttempts()).isEqualTo(1200);
        assertThat(refused.slowRequests()).isZero();
        assertThat(refused.slowNanos()).isZero();
    }

    @Test
    void istiodsDefaultRetriesA503AfterItsLatencyButNotAHostThatHangs() {
        // no per-try timeout and no route timeout: a hanging host holds its request until the caller gives up,
        // unretried; the round robin alternates
        RunSummary hangs = run(2, failing(List.of("host-0"), FaultResult.TIMEOUT, 504, 0), RetrySpec.ISTIO_DEFAULT);
        assertThat(hangs.failed()).isEqualTo(300);
        assertThat(hangs.slowRequests()).isZero();
        // a 503 after 1 s is retried on the other pod (previous_hosts): every request waits 1 s
        RunSummary slow503 = run(2, failing(List.of("host-0"), null, 503, 1 * S), RetrySpec.ISTIO_DEFAULT);
        assertThat(slow503.failed()).isZero();
        assertThat(slow503.slowRequests()).isEqualTo(600);
        assertThat(slow503.slowNanos()).isEqualTo(600 * S);
    }
}
