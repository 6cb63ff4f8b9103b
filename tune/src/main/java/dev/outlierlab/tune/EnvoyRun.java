package dev.outlierlab.tune;

import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.fault.FailureMemo;
import dev.outlierlab.sim.scenario.Scenario;

/** Envoy's simulation ({@link Simulation}) with the scenario's own outlier settings. */
final class EnvoyRun implements RunProfile {
    /**
     * The figures need the summary and the events, not the time series: one step of series instead of one a second
     * spares each run the per-second buckets (the summary is the same). A search runs each scenario with the same
     * seeds under many settings, so the random pattern's failures are found once and shared ({@link FailureMemo}, up
     * to 16 million of them, 32 MB; the same runs).
     */
    private static final RunOptions FIGURES_ONLY =
            new RunOptions(false, 1).sharingFailures(new FailureMemo(16_000_000));

    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return TuneRuns.figures(suite, Simulation.run(scenario, FIGURES_ONLY));
    }

    @Override
    public String toString() {
        return "envoy";
    }
}
