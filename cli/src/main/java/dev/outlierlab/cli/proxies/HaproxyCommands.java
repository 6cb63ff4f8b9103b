package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.HaproxyChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.cli.ServerConfigRun;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.config.haproxy.HaproxySettings;
import dev.outlierlab.engine.haproxy.HaproxyEvent;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.sim.haproxy.HaproxySimulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/** HAProxy's observe/on-error checks in the command line: {@code check haproxy.cfg}, {@code run --haproxy}. */
public final class HaproxyCommands implements Profile, CheckFile, ServerConfigRun {
    private static final Pattern SECTION = Pattern.compile("(?m)^\\s*(backend|listen)\\s+\\S+\\s*$");
    private static final Pattern SERVER = Pattern.compile("(?m)^\\s+server\\s+\\S+\\s+\\S+");
    private static final Pattern NAME = Pattern.compile("haproxy[^/]*\\.cfg");

    @Override
    public String name() {
        return "haproxy";
    }

    @Override
    public int rank() {
        return 110;
    }

    @Override
    public boolean recognises(String text, String source) {
        return NAME.matcher(NginxCommands.fileName(source)).matches()
                || SECTION.matcher(text).find() && SERVER.matcher(text).find();
    }

    @Override
    public CheckInputs.Loaded check(String text, String source) {
        return new CheckInputs.Loaded(
                List.of(), HaproxyChecks.forBackend(HaproxyConfigReader.readText(text, source, null), source));
    }

    @Override
    public String run(Path file, String part, Scenario scenario, int maxEvents) {
        HaproxySettings settings = HaproxyConfigReader.read(file, part);
        List<String> servers =
                settings.servers().stream().map(HaproxyServer::address).toList();
        Scenario s = ServerScenario.onServers(scenario, servers);
        HaproxySimulation.Result r = HaproxySimulation.run(s, settings.servers());
        StringBuilder b = ServerScenario.head(
                "outlier-lab run --haproxy " + file + ": backend " + settings.backend() + ", " + servers.size()
                        + " servers",
                s);
        long[] downs = new long[servers.size()];
        for (int i = 0; i < downs.length; i++) {
            downs[i] = r.downs(i);
        }
        ServerScenario.totals(
                b,
                r.requests(),
                r.clientErrors(),
                "no server available (503)",
                r.noServer(),
                servers,
                r.attempts(),
                downs);
        b.append("error-limit trips ")
                .append(r.trips())
                .append(", health checks ")
                .append(r.checks())
                .append('\n');
        b.append("ejections and returns (").append(r.events().size()).append("):\n");
        for (HaproxyEvent e :
                r.events().subList(0, Math.min(maxEvents, r.events().size()))) {
            b.append(ServerScenario.time(e.timeNanos()))
                    .append("  ")
                    .append(e.action())
                    .append("  ")
                    .append(e.endpointName())
                    .append("  ")
                    .append(e.reason().outputName())
                    .append('\n');
        }
        ServerScenario.more(
                b, Math.min(maxEvents, r.events().size()), r.events().size());
        return b.toString();
    }
}
