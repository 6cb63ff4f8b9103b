package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.yaml.Located;

/**
 * A profile's facet in {@code config}: it reads a scenario document whose {@code profile:} key names it. The document
 * is a mapping with every {@code --set} override already applied; each bad key or value is refused with one message
 * that gives the key, the value, the line and what is allowed ({@link InputException}).
 */
public interface ScenarioFormat {
    /** Reads the document (a mapping) as a scenario of this profile. */
    ScenarioReader.Profiled read(Located root);

    /** The commands that take this profile's scenarios, for the refusal of a command that takes only Envoy's. */
    default String takenBy() {
        return "run";
    }
}
