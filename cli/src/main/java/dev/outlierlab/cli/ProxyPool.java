package dev.outlierlab.cli;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.live.LivePoolBuilder;

/** A profile's facet in {@code proxy}: the live pool of a scenario's settings, on the engine's detector. */
public interface ProxyPool {
    /** The pool's builder for the scenario's settings, named {@code name}. */
    LivePoolBuilder builder(String name, ScenarioReader.Profiled settings);
}
