package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The server configurations {@code run}, {@code sweep} and {@code export} take: an nginx.conf, a haproxy.cfg or a
 * Caddyfile whose servers and directives become a scenario of that server's profile (its block read from the file),
 * with the lab's traffic and faults.
 */
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
    private record Given(String profile, String option, Path file, String part) {}

    private Given given() {
        if (upstream != null && nginx == null) {
            throw new InputException("--upstream " + upstream + ": names an nginx upstream; give --nginx FILE too");
        }
        if (backend != null && haproxy == null) {
            throw new InputException("--backend " + backend + ": names a HAProxy backend; give --haproxy FILE too");
        }
        List<Given> all = new ArrayList<>();
        if (nginx != null) {
            all.add(new Given("nginx", "--nginx", nginx, upstream));
        }
        if (haproxy != null) {
            all.add(new Given("haproxy", "--haproxy", haproxy, backend));
        }
        if (caddy != null) {
            all.add(new Given("caddy", "--caddy", caddy, null));
        }
        if (all.size() > 1) {
            throw new InputException("--nginx, --haproxy and --caddy each give the servers to run on; give one");
        }
        return all.isEmpty() ? null : all.get(0);
    }

    boolean isUsed() {
        return given() != null;
    }

    private static ServerConfigRun facet(String profile) {
        return Profiles.facet(
                profile,
                ServerConfigRun.class,
                names -> new InputException("no reader for " + profile + " configurations; this takes " + names));
    }

    /**
     * The scenario of the file's profile: the lab's scenario ({@code input}'s file or the built-in one) with the
     * overrides of its own keys, the file's servers and directives as the profile's block, and the overrides of the
     * block's keys ({@code max_fails=3} or {@code nginx.max_fails=3}: a key that is not one of the lab's is the
     * profile's).
     */
    ScenarioReader.Profiled resolve(InputOptions input, List<String> sets) {
        return resolved(input, sets).profiled();
    }

    /** The scenario through the file's servers, and what the file sets that the lab reads past. */
    private record Resolved(ScenarioReader.Profiled profiled, List<String> notModelled) {}

    private Resolved resolved(InputOptions input, List<String> sets) {
        Given g = given();
        if (input.clusterSource.isUsed() || input.givesGrpcSettings()) {
            throw new InputException(g.option() + " gives the servers and their settings; leave out --envoy, --istio, "
                    + "--service-config and --grpc-implementation");
        }
        List<String> lab = new ArrayList<>();
        List<String> own = new ArrayList<>();
        for (String set : sets) {
            int eq = set.indexOf('=');
            String key = eq < 0 ? set : set.substring(0, eq);
            String first = key.split("[.\\[]", 2)[0];
            if (first.equals(g.profile())) {
                own.add(set);
            } else if (ScenarioReader.isTopLevelKey(first)) {
                lab.add(set);
            } else {
                own.add(g.profile() + "." + set);
            }
        }
        ScenarioReader.Profiled base = input.scenario.source().loadProfiled(lab);
        if (base.envoy() == null || !base.profile().capabilities().contains(Capability.ENVOY_REPORT)) {
            throw new InputException(g.option() + " " + g.file() + ": runs the lab's scenario (hosts, traffic, faults) "
                    + "through the file's servers; this scenario's profile is " + base.name()
                    + " (give a profile: envoy scenario, or a profile: " + g.profile() + " scenario without "
                    + g.option() + ")");
        }
        Map<String, Object> document = ScenarioWriter.toMap(base.envoy().scenario());
        document.remove("outlier_detection");
        document.remove("health_checks");
        document.put("profile", g.profile());
        ServerConfigRun.Block block = facet(g.profile()).block(g.file(), g.part());
        document.put(g.profile(), block.settings());
        return new Resolved(ScenarioReader.readPlain(document, g.file().toString(), own), block.notModelled());
    }

    /** {@code run} of the given server configuration. */
    String run(InputOptions input, RunRequest request) {
        Given g = given();
        Resolved r = resolved(input, input.allSets());
        request.refuseByCapabilities(r.profiled().profile());
        return facet(g.profile())
                .run(r.profiled(), request, "outlier-lab run " + g.option() + " " + g.file(), r.notModelled());
    }
}
