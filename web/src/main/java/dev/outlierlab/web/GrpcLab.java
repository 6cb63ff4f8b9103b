package dev.outlierlab.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.scenario.GrpcScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.GrpcResultJson;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.grpc.GrpcProfile;
import dev.outlierlab.sim.scenario.Scenario;
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

    @Override
    public boolean comparable() {
        return true;
    }

    /**
     * grpc-java's detector over the scenario, one channel: with the scenario's grpc block, or its Envoy settings as
     * gRPC's xDS client maps them ({@code run --profile} does the same); the answer says which under {@code grpc}.
     */
    @Override
    public Optional<LabColumn> compared(ScenarioReader.Profiled base, SimulationLimits limits) {
        Scenario scenario = GrpcLabRun.admit(base, limits);
        GrpcSettings settings = base.grpc() != null ? base.grpc() : GrpcLabRun.mapped(scenario);
        return Optional.of(new LabColumn() {
            @Override
            public ProfileComparison.Column run(RunWatcher watcher) {
                return ProfileComparison.column(
                        GrpcScenarioFormat.NAME + " ("
                                + settings.config().implementation().label() + ")",
                        new GrpcProfile(settings.config()).run(scenario, RunOptions.DEFAULT.watchedBy(watcher)));
            }

            @Override
            public JsonNode about() {
                return GrpcResultJson.settingsTree(settings);
            }
        });
    }
}
