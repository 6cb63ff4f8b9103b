package dev.outlierlab.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.EnvoyScenarioFormat;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.hinges.PatternContrast;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.Map;
import java.util.Optional;

/** Envoy's outlier detection in the browser lab: its run with charts and hinges; its controls are the page's own. */
public final class EnvoyLab implements Profile, LabProfile {
    @Override
    public String name() {
        return EnvoyScenarioFormat.NAME;
    }

    @Override
    public ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher) {
        Scenario scenario = profiled.envoy().scenario();
        limits.check(scenario);
        RunResult result = Simulation.run(scenario, RunOptions.CHARTS.watchedBy(watcher));
        ObjectNode tree = ResultJson.toTree(result, true);
        tree.set("hinges", LabApi.hingeLines(result, PatternContrast.planned(scenario)));
        return tree;
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled profiled) {
        return ScenarioWriter.toMap(profiled.envoy().scenario());
    }

    @Override
    public boolean comparable() {
        return true;
    }

    /** Envoy's simulation of the scenario, with its outlier settings. */
    @Override
    public Optional<LabColumn> compared(ScenarioReader.Profiled base, SimulationLimits limits) {
        Scenario scenario = base.envoy().scenario();
        limits.check(scenario);
        return Optional.of(watcher -> ProfileComparison.column(
                EnvoyScenarioFormat.NAME, Simulation.run(scenario, RunOptions.DEFAULT.watchedBy(watcher))));
    }
}
