package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import java.util.Map;

/**
 * A profile's facet in {@code export}: the scenario as its file gives it ({@code --to scenario}) and, for a profile
 * that has one, the Envoy cluster it runs ({@code --to envoy}). Each refuses what the profile cannot write with one
 * message ({@link InputException}).
 */
public interface ScenarioExport {
    /** The scenario as plain maps and lists in the scenario-file format, every default filled in. */
    Map<String, Object> scenario(ScenarioReader.Profiled resolved);

    /** The Envoy cluster as YAML. */
    String envoyCluster(ScenarioReader.Profiled resolved);
}
