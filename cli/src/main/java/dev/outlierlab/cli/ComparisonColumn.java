package dev.outlierlab.cli;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.ProfileComparison;
import java.util.List;

/**
 * A profile's facet in {@code run --profile A,B}: the same hosts, traffic and faults run under this profile, as one
 * column of the comparison table, and the lines said under the table.
 */
public interface ComparisonColumn {
    /**
     * The column of {@code scenario}'s traffic and faults under this profile; {@code given} is the input as resolved for
     * the run (the scenario with its cluster applied, and the settings the input gives).
     */
    ProfileComparison.Column column(ScenarioReader.Profiled given);

    /** The lines under the table that say where this profile's settings came from; none by default. */
    default List<String> notes(ScenarioReader.Profiled given) {
        return List.of();
    }
}
