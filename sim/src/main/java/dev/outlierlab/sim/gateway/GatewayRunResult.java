package dev.outlierlab.sim.gateway;

import dev.outlierlab.engine.gateway.GatewayEvent;
import java.util.List;

/**
 * The outcome of one gateway run, plain data for any renderer: the scenario as run, the summary, and every
 * decision (ejections, would-ejections, returns) in the order they happened.
 */
public record GatewayRunResult(GatewayScenario scenario, GatewaySummary summary, List<GatewayEvent> events) {
    public GatewayRunResult {
        events = List.copyOf(events);
    }
}
