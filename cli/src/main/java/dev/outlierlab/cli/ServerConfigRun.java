package dev.outlierlab.cli;

import dev.outlierlab.config.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A profile's facet in {@code run --nginx FILE} (and {@code --haproxy}, {@code --caddy}, and the same options of
 * {@code sweep} and {@code export}): a server configuration of the profile's own, read from a file as the profile's
 * scenario block, so that the file's servers and directives run the lab's traffic and faults as a scenario of the
 * profile would.
 */
public interface ServerConfigRun {
    /**
     * A configuration read as the profile's scenario block.
     *
     * @param settings    the block (as the profile's scenario files write it, every value filled in): the servers'
     *                    addresses in order, and the directives the profile models
     * @param notModelled what the file sets that the lab reads past, one sentence each with its file and line
     */
    record Block(Map<String, Object> settings, List<String> notModelled) {}

    /**
     * The profile's scenario block read from {@code file}.
     *
     * @param part the part of the file to run (an upstream or backend name), or null for the only one
     */
    Block block(Path file, String part);

    /**
     * Runs a scenario of this profile and renders it in the request's format; {@code head} names what ran
     * ({@code outlier-lab run --nginx FILE}), {@code notModelled} what its file sets that the run leaves out.
     */
    String run(ScenarioReader.Profiled resolved, RunRequest request, String head, List<String> notModelled);
}
