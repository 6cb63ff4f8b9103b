package dev.outlierlab.cli;

import static dev.outlierlab.cli.EnvoyTraces.root;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The set of Envoy traces itself: every directory under {@code src/test/resources/envoy-traces/} is one the
 * {@code EnvoyTrace*Test} classes run, none is left out, and every trace's header names the Envoy test it restates.
 *
 * <p>How a trace is run and its result read: {@link EnvoyTraces}.
 */
class EnvoyTraceSetTest {
    /**
     * The traces the {@code EnvoyTrace*Test} classes run; {@link #everyTraceIsRunAndNamesItsEnvoyTest()} checks none
     * is left out.
     */
    private static final Set<String> TRACES = Set.of(
            "basic-flow-5xx",
            "gateway-failure",
            "gateway-failure-and-5xx",
            "nonsplit-connect-failed",
            "nonsplit-timeout-with-code",
            "nonsplit-external-origin",
            "split-local-origin",
            "split-large-number-of-timeouts",
            "split-external-origin-events",
            "already-ejected",
            "success-rate",
            "success-rate-local-origin",
            "failure-percentage",
            "failure-percentage-local-origin",
            "overflow",
            "not-enforcing",
            "always-eject-one-host",
            "eject-time-backoff",
            "max-eject-time",
            "max-eject-time-not-aligned",
            "ejection-jitter",
            "active-hc-uneject");

    @Test
    @DisplayName("every trace directory is run here, and every trace names the Envoy test it restates")
    void everyTraceIsRunAndNamesItsEnvoyTest() throws IOException {
        Set<String> found = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(root())) {
            dirs.filter(Files::isDirectory)
                    .forEach(d -> found.add(d.getFileName().toString()));
        }
        assertThat(found).containsExactlyInAnyOrderElementsOf(TRACES);
        for (String name : found) {
            Path dir = root().resolve(name);
            assertThat(dir.resolve("scenario.yaml")).exists();
            String firstLine = Files.readAllLines(dir.resolve("trace.jsonl")).get(0);
            assertThat(firstLine).as(name + "/trace.jsonl").startsWith("# Restates ");
        }
    }
}
