package dev.outlierlab.tune;

import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;

/** Envoy's simulation ({@link Simulation}) with the scenario's own outlier settings. */
final class EnvoyRun implements RunProfile {
    /**
     * The figures need the summary and the events, not the time series: one step of series instead of one a second
     * spares each run the per-second buckets (the summary is the same).
     */
    private static final RunOptions FIGURES_ONLY = new RunOptions(false, 1);

    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return TuneRuns.figures(suite, Simulation.run(scenario, FIGURES_ONLY));
    }

    @Override
    public String toString() {
        return "envoy";
    }
}
