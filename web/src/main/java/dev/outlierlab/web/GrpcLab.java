package dev.outlierlab.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.GrpcScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.sim.RunWatcher;
import java.util.Map;
import java.util.Optional;

/** grpc-java's outlier detection in the browser lab ({@link GrpcLabRun}, {@link GrpcControls}). */
public final class GrpcLab implements Profile, LabProfile {
    @Override
    public String name() {
        return GrpcScenarioFormat.NAME;
    }

    @Override
    public ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        return GrpcLabRun.run(profiled, limits, watcher);
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled profiled) {
        return GrpcLabRun.scenarioMap(
                profiled.envoy().scenario(), profiled.grpc().config());
    }

    @Override
    public Optional<ObjectNode> controls(SimulationLimits limits) {
        return Optional.of(GrpcControls.settingsJson());
    }
}
