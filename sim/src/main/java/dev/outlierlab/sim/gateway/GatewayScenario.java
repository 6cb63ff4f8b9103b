package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A scenario of the gateway profile (docs/gateway.md): the endpoints in routing order, the
 * lab model's traffic, faults, duration and seed, and the gateway's and the router's settings. Immutable and
 * validated; faults must name endpoints, and weights must match them.
 */
public record GatewayScenario(
        String name,
        long durationNanos,
        long seed,
        List<String> endpoints,
        TrafficSpec traffic,
        List<FaultSpec> faults,
        GatewayConfig gateway,
        RoutingConfig routing) {

    public GatewayScenario {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(traffic, "traffic");
        Objects.requireNonNull(gateway, "gateway");
        Objects.requireNonNull(routing, "routing");
        endpoints = List.copyOf(endpoints);
        faults = List.copyOf(faults);
        new ClusterSpec(endpoints, 0);
        if (durationNanos <= 0 || durationNanos > Durations.MAX_NANOS) {
            throw new InvalidConfigException(
                    "duration", Durations.format(durationNanos), "a duration greater than 0, such as 300s or 5m");
        }
        Set<String> known = new HashSet<>(endpoints);
        for (int i = 0; i < faults.size(); i++) {
            for (String host : faults.get(i).hosts()) {
                if (!known.contains(host)) {
                    throw new InvalidConfigException(
                            "faults[" + i + "].hosts",
                            "\"" + host + "\"",
                            "names of the cluster's hosts: " + String.join(", ", endpoints));
                }
            }
        }
        routing.validateFor(endpoints.size());
    }

    /** The lab's default scenario (six hosts, host-0 failing 33 % from 30 s to 240 s) under the gateway's defaults. */
    public static GatewayScenario defaults() {
        return withDefaultsOver(Scenario.defaults());
    }

    /**
     * A lab scenario's name, duration, seed, hosts, traffic and faults under the gateway's defaults (one process):
     * the gateway column of a comparison of profiles on the same traffic. Throws {@code InvalidConfigException}
     * when its faults do not fit the gateway profile.
     */
    public static GatewayScenario withDefaultsOver(Scenario s) {
        return new GatewayScenario(
                s.name(),
                s.durationNanos(),
                s.seed(),
                s.cluster().hosts(),
                s.traffic(),
                s.faults(),
                GatewayConfig.defaults(),
                RoutingConfig.defaults());
    }

    /** The number of requests: those with {@code floor(i * 1e9 / rps) < duration}. */
    public long requestCount() {
        return traffic.requestsBefore(durationNanos);
    }

    /** The most attempts one request can make: the first and {@code routing.fallbacks} more, at most one per endpoint. */
    public int maxAttemptsPerRequest() {
        return (int) Math.min(endpoints.size(), 1L + routing.fallbacks());
    }

    public GatewayScenario withGateway(GatewayConfig newGateway) {
        return new GatewayScenario(name, durationNanos, seed, endpoints, traffic, faults, newGateway, routing);
    }
}
