package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded random gateway scenarios for property tests: 1 to 8 endpoints, 1 to 3 processes, every routing
 * strategy with 0 to 2 fallbacks, windows of 1 to 40 buckets of 0.1 s to 2 s, both peer sets, floors from 0
 * to 5 points, hard trips off or 1 to 5, ejections of 0.5 s to 40 s, and up to three faults with statuses or
 * local results. Small enough that 300 of them run in about a second.
 */
final class RandomGatewayScenarios {
    private RandomGatewayScenarios() {}

    static GatewayScenario of(long seed, StageMode mode) {
        Random r = new Random(seed * 0x9E3779B97F4A7C15L);
        int n = 1 + r.nextInt(8);
        List<String> endpoints = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            endpoints.add("e" + i);
        }
        long duration = (15 + r.nextInt(45)) * Durations.SECOND;
        long rps = 20 + r.nextInt(200);
        List<FaultSpec> faults = new ArrayList<>();
        int faultCount = r.nextInt(4);
        for (int f = 0; f < faultCount; f++) {
            List<String> hosts = new ArrayList<>();
            for (String e : endpoints) {
                if (r.nextInt(3) == 0) {
                    hosts.add(e);
                }
            }
            if (hosts.isEmpty()) {
                hosts.add(endpoints.get(r.nextInt(n)));
            }
            long start = (long) (r.nextDouble() * duration);
            long end = start + (long) (r.nextDouble() * (duration - start));
            long ppm = new long[] {1_000_000, 500_000, 330_000, 100_000, 20_000}[r.nextInt(5)];
            RequestResult result = r.nextInt(4) == 0 ? RequestResult.LOCAL_ORIGIN_TIMEOUT : null;
            faults.add(FaultSpec.builder()
                    .hosts(hosts)
                    .window(start, end)
                    .errorRatePpm(ppm)
                    .status(500 + r.nextInt(100))
                    .result(result)
                    .build());
        }
        long bucket = (1 + r.nextInt(20)) * 100 * Durations.MILLISECOND;
        int buckets = 1 + r.nextInt(40);
        GatewayConfig config = new GatewayConfig(
                mode,
                bucket * buckets,
                bucket,
                1 + r.nextInt(10),
                new double[] {1.0, 1.5, 2.0, 2.0, 3.0}[r.nextInt(5)],
                r.nextBoolean() ? PeerSet.ALL : PeerSet.OTHERS,
                new double[] {0, 0.5, 1, 1, 5}[r.nextInt(5)],
                r.nextInt(6),
                (5 + r.nextInt(400)) * 100 * Durations.MILLISECOND,
                1 + r.nextInt(3));
        RoutingStrategy strategy = RoutingStrategy.values()[r.nextInt(3)];
        List<Integer> weights = new ArrayList<>();
        if (strategy == RoutingStrategy.WEIGHTED) {
            for (int i = 0; i < n; i++) {
                weights.add(1 + r.nextInt(5));
            }
        }
        RoutingConfig routing = new RoutingConfig(strategy, weights, r.nextInt(3));
        return new GatewayScenario(
                "random-" + seed, duration, seed, endpoints, new TrafficSpec(rps), faults, config, routing);
    }
}
