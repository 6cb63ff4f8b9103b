package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.List;

/** A small builder of gateway scenarios for tests: endpoints e0..e(n-1), the gateway defaults otherwise. */
final class GatewayScenarios {
    static final long S = Durations.SECOND;

    private String name = "test";
    private long duration = 300 * S;
    private long seed = 1;
    private List<String> endpoints = List.of("e0", "e1");
    private long rps = 600;
    private final List<FaultSpec> faults = new ArrayList<>();
    private StageMode mode = StageMode.PROD;
    private PeerSet peers = PeerSet.ALL;
    private double minStdev = 1.0;
    private int consecutive = 3;
    private int processes = 1;
    private long window = 60 * S;
    private long bucket = S;
    private int minRequests = 5;
    private long ejection = 30 * S;
    private RoutingConfig routing = RoutingConfig.defaults();

    static GatewayScenarios endpoints(int n) {
        GatewayScenarios b = new GatewayScenarios();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("e" + i);
        }
        b.endpoints = names;
        return b;
    }

    static GatewayScenarios named(String... names) {
        GatewayScenarios b = new GatewayScenarios();
        b.endpoints = List.of(names);
        return b;
    }

    GatewayScenarios duration(long seconds) {
        duration = seconds * S;
        return this;
    }

    GatewayScenarios rps(long value) {
        rps = value;
        return this;
    }

    GatewayScenarios seed(long value) {
        seed = value;
        return this;
    }

    /** The first {@code hosts} endpoints fail {@code percent} % from {@code start} to {@code end} seconds. */
    GatewayScenarios fault(int hosts, double percent, long start, long end) {
        faults.add(FaultSpec.builder()
                .hosts(endpoints.subList(0, hosts))
                .window(start * S, end * S)
                .errorRatePpm(Math.round(percent * 10_000))
                .build());
        return this;
    }

    GatewayScenarios faultOn(List<String> hosts, double percent, long startNanos, long endNanos) {
        faults.add(FaultSpec.builder()
                .hosts(hosts)
                .window(startNanos, endNanos)
                .errorRatePpm(Math.round(percent * 10_000))
                .build());
        return this;
    }

    GatewayScenarios mode(StageMode value) {
        mode = value;
        return this;
    }

    GatewayScenarios peers(PeerSet value) {
        peers = value;
        return this;
    }

    GatewayScenarios minStdev(double value) {
        minStdev = value;
        return this;
    }

    GatewayScenarios consecutive(int value) {
        consecutive = value;
        return this;
    }

    GatewayScenarios processes(int value) {
        processes = value;
        return this;
    }

    GatewayScenarios window(long windowNanos, long bucketNanos) {
        window = windowNanos;
        bucket = bucketNanos;
        return this;
    }

    GatewayScenarios minRequests(int value) {
        minRequests = value;
        return this;
    }

    GatewayScenarios ejection(long nanos) {
        ejection = nanos;
        return this;
    }

    GatewayScenarios routing(RoutingStrategy strategy, List<Integer> weights, int fallbacks) {
        routing = new RoutingConfig(strategy, weights, fallbacks);
        return this;
    }

    GatewayScenario build() {
        GatewayConfig config = new GatewayConfig(
                mode, window, bucket, minRequests, 2.0, peers, minStdev, consecutive, ejection, processes);
        return new GatewayScenario(name, duration, seed, endpoints, new TrafficSpec(rps), faults, config, routing);
    }

    GatewayRunResult run() {
        return GatewaySimulation.run(build());
    }
}
