package dev.outlierlab.config.scenario;

import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The named scenarios that tell the seeds' stories of when ejection makes things worse ({@code run --example
 * NAME}, {@code --list-examples}, the browser's example buttons). Each is a scenario file kept as a resource,
 * its opening comment saying what it shows.
 */
public final class Examples {
    /** One named scenario and its one-line summary. */
    public record Example(String name, String summary) {}

    private static final List<Example> ALL = List.of(
            new Example(
                    "cache-broken-health-check",
                    "health checks pass while the cache is broken: each passing probe returns the ejected host (flapping)"),
            new Example(
                    "cache-broken-no-uneject",
                    "the same with successful_active_health_check_uneject_host: false: ejected for 30, 60, 90 s, no flapping"),
            new Example(
                    "dead-host-health-checks",
                    "a crashed host, caught by active health checks before traffic arrives: no request fails"),
            new Example(
                    "dead-host-no-health-checks",
                    "the same crashed host without health checks: consecutive_5xx ejects it within five requests"),
            new Example(
                    "overload-cap-100",
                    "hosts with capacity 120 rps: one dies, the overloaded rest are ejected in turn until panic"),
            new Example(
                    "overload-cap-34",
                    "the same overload with cap 34: two hosts out at most, no panic, the rest stay overloaded"),
            new Example(
                    "shared-outage",
                    "every host fails a third of its requests (a shared dependency): no outlier, nothing ejected"),
            new Example(
                    "large-cluster-low-traffic",
                    "200 hosts at 100 rps: success rate never has the volume, a dead host is seen only rarely"));

    private Examples() {}

    public static List<Example> all() {
        return ALL;
    }

    /** The scenario text of the example, or an {@link InputException} naming the examples there are. */
    public static String text(String name) {
        if (ALL.stream().noneMatch(e -> e.name().equals(name))) {
            throw new InputException("--example: '" + name + "' is not an example; expected one of "
                    + String.join(", ", ALL.stream().map(Example::name).toList()) + " (see --list-examples)");
        }
        try (InputStream in = Examples.class.getResourceAsStream("/dev/outlierlab/config/examples/" + name + ".yaml")) {
            if (in == null) {
                throw new IllegalStateException("example resource missing: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads the example as a scenario, with overrides. */
    public static ScenarioReader.Loaded load(String name, List<String> sets) {
        return ScenarioReader.read(text(name), "example " + name, sets);
    }
}
