package dev.outlierlab.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.sim.RunWatcher;
import java.util.Map;
import java.util.Optional;

/**
 * A profile's facet in the browser lab: {@code POST /api/run}'s answer for one of its scenarios, the scenario written
 * back as its file gives it ({@code POST /api/scenario}), and the description of its controls under its name in
 * {@code GET /api/settings}. A profile without it is refused by the lab with the names of those that have it.
 */
public interface LabProfile {
    /** The run's JSON with the charts' series, after the lab's limits admit the scenario. */
    ObjectNode run(ScenarioReader.Profiled profiled, SimulationLimits limits, RunWatcher watcher);

    /** The scenario as plain maps and lists in the scenario-file format, every default filled in. */
    Map<String, Object> scenario(ScenarioReader.Profiled profiled);

    /**
     * This profile's column of {@code POST /api/compare} over {@code base} (a scenario of a profile that can be
     * compared), admitted by the limits now and run later; none by default.
     */
    default Optional<LabColumn> compared(ScenarioReader.Profiled base, SimulationLimits limits) {
        return Optional.empty();
    }

    /** Whether the profile gives a column of {@code POST /api/compare}, for the words of a refusal. */
    default boolean comparable() {
        return false;
    }

    /** The controls' description for the page, under the profile's name in the settings; none by default. */
    default Optional<ObjectNode> controls(SimulationLimits limits) {
        return Optional.empty();
    }
}
