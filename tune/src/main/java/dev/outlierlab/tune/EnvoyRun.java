package dev.outlierlab.tune;

import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;

/** Envoy's simulation ({@link Simulation}) with the scenario's own outlier settings. */
final class EnvoyRun implements RunProfile {
    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return TuneRuns.figures(suite, Simulation.run(scenario, RunOptions.DEFAULT));
    }

    @Override
    public String toString() {
        return "envoy";
    }
}
