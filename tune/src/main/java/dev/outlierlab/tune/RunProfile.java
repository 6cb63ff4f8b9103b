package dev.outlierlab.tune;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.gateway.GatewaySummary;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.grpc.GrpcProfile;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which simulation a suite run goes through: Envoy's ({@link Simulation}, the scenario's own outlier settings), the
 * gRPC profile's ({@link GrpcProfile}: grpc-java's {@code OutlierDetectionLoadBalancer} with these settings, one
 * channel), or the gateway profile's ({@link GatewaySimulation}: these gateway and routing settings, one process per
 * caller, over the scenario's hosts, traffic and faults). Each reduces its run to the same {@link RunFigures}.
 *
 * @param grpc    the gRPC settings, or null
 * @param gateway the gateway settings, or null
 * @param routing the gateway's routing, with {@code gateway}
 */
public record RunProfile(GrpcOutlierConfig grpc, GatewayConfig gateway, RoutingConfig routing) {
    /** Envoy's simulation, with the scenario's outlier settings. */
    public static final RunProfile ENVOY = new RunProfile(null, null, null);

    public static RunProfile grpc(GrpcOutlierConfig config) {
        return new RunProfile(config, null, null);
    }

    public static RunProfile gateway(GatewayConfig config, RoutingConfig routing) {
        return new RunProfile(null, config, routing);
    }

    /** The work of the run in request-equivalents, for the progress bar and the work limit. */
    long units(Scenario scenario) {
        return gateway != null
                ? GatewayWorkEstimate.of(gatewayScenario(scenario)).units()
                : WorkEstimate.of(scenario).units();
    }

    /** Simulates {@code scenario} under this profile and reduces the run to its figures. */
    RunFigures figures(SuiteScenario suite, Scenario scenario) {
        if (gateway != null) {
            return gatewayFigures(suite, GatewaySimulation.run(gatewayScenario(scenario)));
        }
        if (grpc != null) {
            return TuneRuns.figures(suite, new GrpcProfile(grpc).run(scenario, RunOptions.DEFAULT));
        }
        return TuneRuns.figures(suite, Simulation.run(scenario, RunOptions.DEFAULT));
    }

    /**
     * The scenario's hosts, traffic, faults, duration and seed under these gateway settings, one gateway process per
     * caller; weighted routing with another number of weights than the scenario's hosts (a suite's cluster of two or
     * three) routes round-robin.
     */
    public GatewayScenario gatewayScenario(Scenario s) {
        GatewayConfig g = gateway.processes() == s.traffic().clients()
                ? gateway
                : gateway.toBuilder().processes(s.traffic().clients()).build();
        RoutingConfig r = routing.weights().isEmpty()
                        || routing.weights().size() == s.cluster().size()
                ? routing
                : new RoutingConfig(RoutingConfig.defaults().strategy(), List.of(), routing.fallbacks());
        try {
            return new GatewayScenario(
                    s.name(), s.durationNanos(), s.seed(), s.cluster().hosts(), s.traffic(), s.faults(), g, r);
        } catch (InvalidConfigException e) {
            throw new InputException("tune: " + e.getMessage());
        }
    }

    /**
     * A gateway run's figures: requests as the caller saw them (after fallbacks), ejections in prod, each process a
     * caller; the gateway has no cap and no panic (its rotation guard keeps every endpoint when all would go).
     */
    private static RunFigures gatewayFigures(SuiteScenario suite, GatewayRunResult r) {
        GatewaySummary s = r.summary();
        EjectionTally tally = new EjectionTally(suite);
        int processes = r.scenario().gateway().processes();
        List<Set<Integer>> out = new java.util.ArrayList<>();
        for (int p = 0; p < processes; p++) {
            out.add(new HashSet<>());
        }
        long ejections = 0;
        int most = 0;
        for (GatewayEvent e : r.events()) {
            if (e.action() == GatewayAction.EJECT) {
                ejections++;
                tally.eject(e.process(), e.endpointName(), e.timeNanos());
                out.get(e.process()).add(e.endpoint());
                most = Math.max(most, out.get(e.process()).size());
            } else if (e.action() == GatewayAction.RETURN) {
                tally.uneject(e.process(), e.endpointName(), e.timeNanos());
                out.get(e.process()).remove(e.endpoint());
            }
        }
        long duration = r.scenario().durationNanos();
        return new RunFigures(
                s.requests(),
                s.failedRequests(),
                s.requestsDuringFault(),
                s.failedRequestsDuringFault(),
                ejections,
                0,
                tally.falseEjections(),
                tally.healthyNanos(duration, processes),
                most,
                0,
                tally.detectNanos(),
                tally.returnNanos(duration));
    }
}
