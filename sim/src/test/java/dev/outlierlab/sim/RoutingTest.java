package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.sim.routing.LocalityPriority;
import dev.outlierlab.sim.routing.PriorityRouter;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.RetrySpec;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Routing between callers and hosts as Envoy's load balancer ({@code load_balancer_impl.cc}) and istiod
 * ({@code applyLocalityFailover}, the default retry policy) set it. Each test is a case the lab model's one round robin
 * got wrong: the figures it asserts are Envoy's arithmetic, worked out in the comments.
 */
class RoutingTest {
    private static final Map<String, String> THREE_ZONES =
            Map.of("host-0", "a", "host-1", "a", "host-2", "b", "host-3", "b", "host-4", "c", "host-5", "c");

    private static Scenario scenario(
            double panic, List<FaultSpec> faults, OutlierDetectionConfig od, RoutingSpec routing) {
        return Scenario.builder()
                .name("routing")
                .durationNanos(120 * S)
                .seed(1)
                .cluster(ClusterSpec.ofCount(6, panic))
                .traffic(new TrafficSpec(600))
                .faults(faults)
                .outlierDetection(od)
                .routing(routing)
                .build();
    }

    private static FaultSpec dead(List<String> hosts, FaultResult result) {
        return FaultSpec.builder()
                .hosts(hosts)
                .window(30 * S, 120 * S)
                .errorRatePpm(1_000_000)
                .result(result)
                .burstLengthMilli(1000)
                .build();
    }

    /** Attempts per host sent in [from, to). */
    private static long[] attempts(Scenario s, long from, long to) {
        long[] n = new long[s.cluster().size()];
        Simulation.run(s, RunOptions.DEFAULT, (nanos, host, code, result) -> {
            if (host >= 0 && nanos >= from && nanos < to) {
                n[host]++;
            }
        });
        return n;
    }

    @Test
    void istiodGivesEachCallerItsZoneFirst() {
        // util.LbPriority: same zone 0, other zones of the region 2, renumbered to 1
        assertThat(LocalityPriority.priorities(
                        List.of("host-0", "host-1", "host-2", "host-3", "host-4", "host-5"),
                        Map.of(),
                        THREE_ZONES,
                        "a"))
                .containsExactly(0, 0, 1, 1, 1, 1);
        assertThat(LocalityPriority.lbPriority("r/a", "r/a")).isZero();
        assertThat(LocalityPriority.lbPriority("r/a/x", "r/a/y")).isEqualTo(1);
        assertThat(LocalityPriority.lbPriority("r/a", "r/b")).isEqualTo(2);
        assertThat(LocalityPriority.lbPriority("r/a", "s/a")).isEqualTo(3);
    }

    @Test
    void oneOfTwoLocalPodsEjectedSendsSeventyPercentToTheOtherAndSpillsThirty() {
        // P0 = {host-0, host-1}, P1 = the four others. With host-0 out: P0's health min(100, 140 * 1 / 2) = 70,
        // P1's 100, normalized min(100, 170) = 100; distributeLoad: P0 min(100, 70 * 100 / 100) = 70, P1 30
        RoutingSpec routing = RoutingSpec.NONE.withLocality(THREE_ZONES, List.of("a"), true);
        LoadBalancer balancer = new LoadBalancer(6, 50);
        PriorityRouter router = new PriorityRouter(
                routing,
                50,
                LocalityPriority.forCaller(routing, ClusterSpec.ofCount(6, 50).hosts(), 0),
                0,
                1,
                balancer);
        assertThat(router.healthyLoads()).containsExactly(100, 0);
        balancer.setEjected(0, true);
        assertThat(router.healthyLoads()).containsExactly(70, 30);
        balancer.setEjected(1, true);
        // P0 has no healthy host: 0 and 100, and no panic (normalized availability 100)
        assertThat(router.healthyLoads()).containsExactly(0, 100);
        assertThat(router.panics()).containsExactly(false, false);

        OutlierDetectionConfig od = config(
                OutlierSetting.MAX_EJECTION_PERCENT,
                100L,
                OutlierSetting.ENFORCING_SUCCESS_RATE,
                0L,
                OutlierSetting.BASE_EJECTION_TIME,
                300_000_000_000L);
        Scenario s = scenario(0, List.of(dead(List.of("host-0"), FaultResult.CONNECT_FAILED)), od, routing);
        RunResult r = Simulation.run(s);
        assertThat(Scenarios.times(r, EventAction.EJECT)).hasSize(1);
        long before = 0;
        long[] early = attempts(s, 0, 30 * S);
        for (long v : early) {
            before += v;
        }
        // before the fault the caller in zone a sends everything to its two local pods, half each
        assertThat(early[0] + early[1]).isEqualTo(before);
        assertThat(early[0] * 100.0 / before).isCloseTo(50, within(0.5));
        long[] after = attempts(s, 31 * S, 120 * S);
        long total = 0;
        for (long v : after) {
            total += v;
        }
        assertThat(after[0]).isZero();
        assertThat(after[1] * 100.0 / total).isCloseTo(70, within(1.0));
        for (int h = 2; h < 6; h++) {
            assertThat(after[h] * 100.0 / total).isCloseTo(7.5, within(1.0));
        }
    }

    @Test
    void failTrafficOnPanicFailsEveryRequestInPanic() {
        // four of six hosts ejected: 33 % healthy < threshold 50, availability 140 * 2 / 6 = 46 < 100: panic.
        // hostSourceToUse returns no host with fail_traffic_on_panic, all hosts without it
        OutlierDetectionConfig od =
                config(OutlierSetting.MAX_EJECTION_PERCENT, 100L, OutlierSetting.ENFORCING_SUCCESS_RATE, 0L);
        List<FaultSpec> faults = List.of(dead(List.of("host-0", "host-1", "host-2", "host-3"), null));
        RoutingSpec fail = RoutingSpec.builder().failTrafficOnPanic(true).build();
        RunResult failing = Simulation.run(scenario(50, faults, od, fail));
        RunResult routed = Simulation.run(scenario(50, faults, od, RoutingSpec.NONE));
        assertThat(routed.summary().panicNanos()).isPositive();
        assertThat(routed.summary().noHealthyUpstream()).isZero();
        assertThat(failing.summary().noHealthyUpstream()).isPositive();
        // every request sent in panic found no host
        assertThat(failing.summary().noHealthyUpstream() * 1e9 / 600)
                .isCloseTo(failing.summary().panicNanos(), within(2e7));
    }

    @Test
    void overprovisioningFactorOfOneHundredPanicsWhereTheDefaultDoesNot() {
        // one of six ejected: with 140, min(100, 140 * 5 / 6) = 100, never panic; with 100, 100 * 5 / 6 = 83 < 100
        // and 83.3 % healthy < threshold 85: panic while host-0 is out
        OutlierDetectionConfig od =
                config(OutlierSetting.MAX_EJECTION_PERCENT, 100L, OutlierSetting.ENFORCING_SUCCESS_RATE, 0L);
        List<FaultSpec> faults = List.of(dead(List.of("host-0"), null));
        RoutingSpec hundred = RoutingSpec.builder().overprovisioningFactor(100).build();
        assertThat(Simulation.run(scenario(85, faults, od, RoutingSpec.NONE))
                        .summary()
                        .panicNanos())
                .isZero();
        RunResult r = Simulation.run(scenario(85, faults, od, hundred));
        assertThat(r.summary().panicSeconds()).isGreaterThan(29);
    }

    @Test
    void istiodsDefaultRetriesHideARefusingHostFromItsCallers() {
        OutlierDetectionConfig od =
                config(OutlierSetting.MAX_EJECTION_PERCENT, 100L, OutlierSetting.ENFORCING_SUCCESS_RATE, 0L);
        List<FaultSpec> faults = List.of(dead(List.of("host-0"), FaultResult.CONNECT_FAILED));
        Scenario plain = scenario(50, faults, od, RoutingSpec.NONE);
        Scenario retried = plain.withRouting(RoutingSpec.NONE.withRetries(RetrySpec.ISTIO_DEFAULT));
        RunSummary without = Simulation.run(plain).summary();
        RunSummary with = Simulation.run(retried).summary();
        assertThat(without.failed()).isEqualTo(without.upstreamFailed()).isPositive();
        assertThat(with.upstreamFailed()).isCloseTo(without.upstreamFailed(), within(without.upstreamFailed() / 5));
        assertThat(with.failed()).isZero();
        assertThat(with.retries()).isEqualTo(with.upstreamFailed());
        assertThat(with.requests()).isEqualTo(without.requests());
    }

    @Test
    void retryOnDecidesWhichFailuresAreRetried() {
        RetrySpec gateway = new RetrySpec(
                Set.of("gateway-error"), 1, List.of(), false, 0, "test", 0, RetrySpec.ENVOY_ROUTE_TIMEOUT_NANOS);
        assertThat(gateway.retriesStatus(503)).isTrue();
        assertThat(gateway.retriesStatus(500)).isFalse();
        assertThat(gateway.retriesResult(FaultResult.RESET)).isTrue();
        assertThat(RetrySpec.ISTIO_DEFAULT.retriesStatus(503)).isTrue();
        assertThat(RetrySpec.ISTIO_DEFAULT.retriesStatus(500)).isFalse();
        assertThat(RetrySpec.ISTIO_DEFAULT.retriesResult(FaultResult.CONNECT_FAILED))
                .isTrue();
        assertThat(RetrySpec.ISTIO_DEFAULT.retriesResult(FaultResult.RESET)).isFalse();
        assertThat(RetrySpec.ISTIO_DEFAULT.retriesResult(FaultResult.TIMEOUT)).isFalse();
    }

    @Test
    void leastRequestAndRandomSpreadEvenlyWithoutActiveRequests() {
        for (LbPolicy policy : List.of(LbPolicy.LEAST_REQUEST, LbPolicy.RANDOM)) {
            RoutingSpec spec = RoutingSpec.builder().lbPolicy(policy).build();
            Scenario s = scenario(50, List.of(), config(), spec);
            long[] n = attempts(s, 0, 120 * S);
            for (long v : n) {
                assertThat(v / 72_000.0 * 6).isCloseTo(1.0, within(0.02));
            }
            assertThat(Simulation.run(s)).isNotNull();
        }
    }
}
