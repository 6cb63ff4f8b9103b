package dev.outlierlab.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.GatewayScenarioFormat;
import dev.outlierlab.config.scenario.GatewayScenarioWriter;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.sim.RunWatcher;
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
}
