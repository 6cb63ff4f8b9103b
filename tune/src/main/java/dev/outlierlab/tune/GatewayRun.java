package dev.outlierlab.tune;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.GatewayScenarioWriter;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.RoutingConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.gateway.GatewaySummary;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gateway profile's simulation ({@link GatewaySimulation}: these gateway and routing settings, one process per
 * caller, over the scenario's hosts, traffic and faults).
 *
 * @param gateway the gateway settings
 * @param routing the gateway's routing, which the search keeps
 */
public record GatewayRun(GatewayConfig gateway, RoutingConfig routing) implements RunProfile {
    @Override
    public long units(Scenario scenario) {
        return GatewayWorkEstimate.of(gatewayScenario(scenario)).units();
    }

    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return figures(suite, GatewaySimulation.run(gatewayScenario(scenario)));
    }

    /** The gateway's routing with detection off (mode off). */
    @Override
    public RunProfile off() {
        return new GatewayRun(gateway.withMode(StageMode.OFF), routing);
    }

    @Override
    public int callers() {
        return gateway.processes();
    }

    @Override
    public Setting setting() {
        return Setting.of(gateway);
    }

    @Override
    public Map<String, Object> labScenario(Scenario scenario) {
        return GatewayScenarioWriter.toMap(gatewayScenario(scenario));
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
    private static RunFigures figures(SuiteScenario suite, GatewayRunResult r) {
        GatewaySummary s = r.summary();
        EjectionTally tally = new EjectionTally(suite);
        int processes = r.scenario().gateway().processes();
        List<Set<Integer>> out = new ArrayList<>();
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
