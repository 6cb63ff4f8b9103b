package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code run}'s server configurations: an nginx.conf, a haproxy.cfg or a Caddyfile to run the lab's traffic on. */
public final class ServerConfigOptions {
    @Option(
            names = "--nginx",
            paramLabel = "FILE",
            description = "Run the scenario's traffic and faults through the nginx upstream in FILE (docs/nginx.md).")
    Path nginx;

    @Option(
            names = "--upstream",
            paramLabel = "NAME",
            description = "With --nginx: the upstream (default: the only one).")
    String upstream;

    @Option(
            names = "--haproxy",
            paramLabel = "FILE",
            description =
                    "Run the scenario's traffic and faults through the HAProxy backend in FILE (docs/haproxy.md).")
    Path haproxy;

    @Option(
            names = "--backend",
            paramLabel = "NAME",
            description = "With --haproxy: the backend (default: the only one).")
    String backend;

    @Option(
            names = "--caddy",
            paramLabel = "FILE",
            description = "Run the scenario's traffic and faults through the reverse_proxy in FILE (docs/caddy.md).")
    Path caddy;

    /** The file given, its profile and part; null when none is. */
    private record Given(String profile, Path file, String part) {}

    private Given given() {
        if (upstream != null && nginx == null) {
            throw new InputException("--upstream " + upstream + ": names an nginx upstream; give --nginx FILE too");
        }
        if (backend != null && haproxy == null) {
            throw new InputException("--backend " + backend + ": names a HAProxy backend; give --haproxy FILE too");
        }
        List<Given> all = new ArrayList<>();
        if (nginx != null) {
            all.add(new Given("nginx", nginx, upstream));
        }
        if (haproxy != null) {
            all.add(new Given("haproxy", haproxy, backend));
        }
        if (caddy != null) {
            all.add(new Given("caddy", caddy, null));
        }
        if (all.size() > 1) {
            throw new InputException("--nginx, --haproxy and --caddy each give the servers to run on; give one");
        }
        return all.isEmpty() ? null : all.get(0);
    }

    boolean isUsed() {
        return given() != null;
    }

    /** The run of the given server configuration over {@code scenario}. */
    String run(Scenario scenario, int maxEvents) {
        Given g = given();
        ServerConfigRun runner = Profiles.facet(
                g.profile(),
                ServerConfigRun.class,
                names -> new InputException(
                        "run: no runner for " + g.profile() + " configurations; run takes " + names));
        return runner.run(g.file(), g.part(), scenario, maxEvents);
    }
}
