package dev.outlierlab.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.sim.RunWatcher;

/**
 * One column of {@code POST /api/compare}, contributed by a profile's {@link LabProfile#compared}: admitted by the
 * lab's limits when made, run when asked.
 */
public interface LabColumn {
    /** The scenario's traffic and faults under the profile, as a column of the table. */
    ProfileComparison.Column run(RunWatcher watcher);

    /** What the answer says of the column's settings under the profile's name, or null. */
    default JsonNode about() {
        return null;
    }
}
