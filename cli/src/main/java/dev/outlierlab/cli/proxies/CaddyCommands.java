package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.CaddyChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.cli.ServerConfigRun;
import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.config.caddy.CaddySettings;
import dev.outlierlab.engine.caddy.CaddyEvent;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.sim.caddy.CaddySimulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** Caddy's passive health checks in the command line: {@code check Caddyfile} (or Caddy's JSON),
 * {@code run --caddy Caddyfile}.
 */
public final class CaddyCommands implements Profile, CheckFile, ServerConfigRun {
    private static final Pattern CADDYFILE = Pattern.compile("(?m)^\\s*reverse_proxy(\\s|$)");
    private static final Pattern JSON = Pattern.compile("\"handler\"\\s*:\\s*\"reverse_proxy\"");

    @Override
    public String name() {
        return "caddy";
    }

    @Override
    public int rank() {
        return 120;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NginxCommands.fileName(source).startsWith("Caddyfile")
                || CADDYFILE.matcher(text).find()
                || JSON.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return new CheckInputs.Loaded(
                List.of(), CaddyChecks.forReverseProxy(CaddyConfigReader.readText(text, source), source));
    }

    @Override
    public String run(Path file, String part, Scenario scenario, int maxEvents) {
        CaddySettings settings = CaddyConfigReader.read(file);
        List<String> upstreams = settings.config().upstreams();
        Scenario s = ServerScenario.onServers(scenario, upstreams);
        CaddySimulation.Result r = CaddySimulation.run(s, settings.config());
        StringBuilder b = ServerScenario.head(
                "outlier-lab run --caddy " + file + ": reverse_proxy, " + upstreams.size() + " upstreams", s);
        long[] ejections = new long[upstreams.size()];
        for (int i = 0; i < ejections.length; i++) {
            ejections[i] = r.ejections(i);
        }
        ServerScenario.totals(
                b,
                r.requests(),
                r.clientErrors(),
                "no upstreams available (502)",
                r.noUpstreams(),
                upstreams,
                r.attempts(),
                ejections);
        b.append("retries ").append(r.retries()).append('\n');
        b.append("ejections and returns (").append(r.events().size()).append("):\n");
        for (CaddyEvent e : r.events().subList(0, Math.min(maxEvents, r.events().size()))) {
            b.append(ServerScenario.time(e.timeNanos()))
                    .append("  ")
                    .append(e.eject() ? "eject" : "uneject")
                    .append("  ")
                    .append(e.endpointName())
                    .append("  ")
                    .append(
                            e.eject()
                                    ? "max_fails reached (" + e.fails() + " failures within fail_duration)"
                                    : "failures forgotten (" + e.fails() + " left in fail_duration)")
                    .append('\n');
        }
        ServerScenario.more(
                b, Math.min(maxEvents, r.events().size()), r.events().size());
        return b.toString();
    }
}
