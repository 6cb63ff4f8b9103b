package dev.outlierlab.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.GatewayScenarioFormat;
import dev.outlierlab.config.scenario.GatewayScenarioWriter;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.gateway.GatewayScenario;
import java.util.Map;
import java.util.Optional;

/** The gateway profile in the browser lab ({@link GatewayLabRun}, {@link GatewayLimits}, {@link GatewayControls}). */
public final class GatewayLab implements Profile, LabProfile {
    @Override
    public String name() {
        return GatewayScenarioFormat.NAME;
    }

    @Override
    public ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        GatewayLimits.check(limits, profiled.gateway());
        return GatewayLabRun.run(profiled.gateway(), watcher);
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled profiled) {
        return GatewayScenarioWriter.toMap(profiled.gateway());
    }

    @Override
    public Optional<ObjectNode> controls(SimulationLimits limits) {
        return Optional.of(GatewayControls.settingsJson(limits));
    }

    @Override
    public boolean comparable() {
        return true;
    }

    /** The gateway profile's defaults over the same hosts, traffic and faults, one process. */
    @Override
    public Optional<LabColumn> compared(ScenarioReader.Profiled base, SimulationLimits limits) {
        GatewayScenario gateway;
        try {
            gateway = GatewayScenario.withDefaultsOver(base.envoy().scenario());
        } catch (InvalidConfigException e) {
            throw new InputException("gateway: " + e.getMessage());
        }
        GatewayLimits.check(limits, gateway);
        return Optional.of(new LabColumn() {
            @Override
            public ProfileComparison.Column run(RunWatcher watcher) {
                return ProfileComparison.column(GatewayScenarioFormat.NAME, GatewayLabRun.runQuietly(gateway, watcher));
            }

            @Override
            public JsonNode about() {
                return TextNode.valueOf(
                        "the gateway profile's defaults (docs/gateway.md) over the same hosts, one process");
            }
        });
    }
}
