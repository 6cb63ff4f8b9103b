package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.NginxChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.cli.ServerConfigRun;
import dev.outlierlab.config.nginx.NginxSettings;
import dev.outlierlab.config.nginx.NginxUpstreamReader;
import dev.outlierlab.engine.nginx.NginxEvent;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.sim.nginx.NginxRunResult;
import dev.outlierlab.sim.nginx.NginxSimulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** nginx's passive checks in the command line: {@code check nginx.conf}, {@code run --nginx nginx.conf}. */
public final class NginxCommands implements Profile, CheckFile, ServerConfigRun {
    private static final Pattern UPSTREAM = Pattern.compile("(?m)^\\s*upstream\\s+[^\\s{;]+\\s*\\{");
    private static final Pattern NAME = Pattern.compile("nginx[^/]*\\.conf");

    @Override
    public String name() {
        return "nginx";
    }

    @Override
    public int rank() {
        return 100;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NAME.matcher(fileName(source)).matches()
                || UPSTREAM.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return new CheckInputs.Loaded(
                List.of(), NginxChecks.forUpstream(NginxUpstreamReader.readText(text, source, null)));
    }

    @Override
    public String run(Path file, String part, Scenario scenario, int maxEvents) {
        NginxSettings settings = NginxUpstreamReader.read(file, part);
        Scenario s = ServerScenario.onServers(scenario, settings.config().hosts());
        NginxRunResult r = NginxSimulation.run(s, settings.config());
        StringBuilder b = ServerScenario.head(
                "outlier-lab run --nginx " + file + ": upstream "
                        + settings.config().name() + ", " + r.hosts().size() + " servers, " + r.workers()
                        + (r.workers() == 1 ? " counting worker" : " counting workers (no zone)")
                        + ", proxy_next_upstream "
                        + String.join(" ", settings.config().nextUpstream().words()),
                s);
        long[] ejections = new long[r.hosts().size()];
        for (int i = 0; i < ejections.length; i++) {
            ejections[i] = r.ejections(i);
        }
        ServerScenario.totals(
                b,
                r.requests(),
                r.clientErrors(),
                "no live upstreams (502)",
                r.noLiveUpstreams(),
                r.hosts(),
                r.attempts(),
                ejections);
        b.append("ejections and returns (").append(r.events().size()).append("):\n");
        for (NginxEvent e : r.events().subList(0, Math.min(maxEvents, r.events().size()))) {
            b.append(ServerScenario.time(e.timeNanos()))
                    .append("  ")
                    .append(e.action().outputName())
                    .append("  ")
                    .append(e.endpointName())
                    .append("  ")
                    .append(e.reason().outputName())
                    .append("  worker ")
                    .append(e.worker())
                    .append('\n');
        }
        ServerScenario.more(
                b, Math.min(maxEvents, r.events().size()), r.events().size());
        return b.toString();
    }

    static String fileName(String source) {
        Path name = Path.of(source).getFileName();
        return name == null ? "" : name.toString();
    }
}
