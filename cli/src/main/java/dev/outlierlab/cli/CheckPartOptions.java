package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.profile.Profiles;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code check}'s choice of one part of a server's configuration: {@code --upstream NAME} of an nginx.conf,
 * {@code --backend NAME} of a haproxy.cfg (each profile's {@link CheckFile#partOption}); without them every part is
 * checked.
 */
public final class CheckPartOptions {
    @Option(
            names = "--upstream",
            paramLabel = "NAME",
            description = "nginx: check only this upstream (default: every upstream in the file).")
    String upstream;

    @Option(
            names = "--backend",
            paramLabel = "NAME",
            description = "HAProxy: check only this backend or listen section (default: every one in the file).")
    String backend;

    private final Map<String, Boolean> used = new LinkedHashMap<>();

    private Map<String, String> given() {
        Map<String, String> m = new LinkedHashMap<>();
        if (upstream != null) {
            m.put("--upstream", upstream);
        }
        if (backend != null) {
            m.put("--backend", backend);
        }
        return m;
    }

    /** The part {@code file} is to check: the value of its profile's option, or null for every part. */
    String partFor(CheckFile file) {
        String option = file.partOption();
        String value = option == null ? null : given().get(option);
        if (value != null) {
            used.put(option, true);
        }
        return value;
    }

    /** Refuses an option given for a profile none of whose files were read. */
    void refuseUnused() {
        for (Map.Entry<String, String> e : given().entrySet()) {
            if (!used.containsKey(e.getKey())) {
                String takers = Profiles.orList(Profiles.withFacet(CheckFile.class).stream()
                        .filter(p -> e.getKey()
                                .equals(p.facet(CheckFile.class).orElseThrow().partOption()))
                        .map(Profiles.Registered::name)
                        .toList());
                throw new InputException(e.getKey() + " " + e.getValue() + ": names a part of a " + takers
                        + " configuration, and no such file was checked");
            }
        }
    }
}
