package dev.outlierlab.sim;

import dev.outlierlab.engine.Detector;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.sim.scenario.Scenario;

/**
 * How {@link DetectorSimulation} gets a detector of some profile for a scenario: built with the run's event
 * listener, then asked for its totals when the run ends. The simulator knows this and the {@link Detector}
 * contract, not the profile behind them.
 */
public interface ContractDetector {
    /** A fresh detector for the scenario's hosts, in host order, telling {@code events} of every decision. */
    Detector create(Scenario scenario, DetectorListener events);

    /** What {@code detector} (made by {@link #create}) counted. */
    RunTotals totals(Detector detector);
}
