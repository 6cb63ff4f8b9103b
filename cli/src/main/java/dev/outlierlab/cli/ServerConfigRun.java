package dev.outlierlab.cli;

import dev.outlierlab.config.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.Map;

/**
 * A profile's facet in {@code run --nginx FILE} (and {@code --haproxy}, {@code --caddy}, and the same options of
 * {@code sweep} and {@code export}): a server configuration of the profile's own, read from a file as the profile's
 * scenario block, so that the file's servers and directives run the lab's traffic and faults as a scenario of the
 * profile would.
 */
public interface ServerConfigRun {
    /**
     * The profile's scenario block (as its scenario files write it, every value filled in) read from {@code file}: the
     * servers' addresses in order, and the directives the profile models.
     *
     * @param part the part of the file to run (an upstream or backend name), or null for the only one
     */
    Map<String, Object> block(Path file, String part);

    /**
     * Runs a scenario of this profile and renders it in the request's format; {@code head} names what ran
     * ({@code outlier-lab run --nginx FILE}).
     */
    String run(ScenarioReader.Profiled resolved, RunRequest request, String head);
}
