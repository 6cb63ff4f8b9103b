package dev.outlierlab.cli;

import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;

/**
 * A profile's facet in {@code run --nginx FILE} (and {@code --haproxy}, {@code --caddy}): the lab's traffic and
 * faults run through a server configuration of the profile's own, read from a file.
 */
public interface ServerConfigRun {
    /**
     * Reads {@code file}, runs {@code scenario} on its servers (the scenario's hosts renamed to the servers'
     * addresses, in order) and renders the run as text.
     *
     * @param part      the part of the file to run (an upstream or backend name), or null for the only one
     * @param maxEvents the most ejections and returns to list
     */
    String run(Path file, String part, Scenario scenario, int maxEvents);
}
