package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.HaproxyChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.haproxy.HaproxyBackend;
import dev.outlierlab.config.haproxy.HaproxyBlock;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.config.haproxy.HaproxyScenarioFormat;
import dev.outlierlab.config.haproxy.HaproxySettings;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.haproxy.HaproxyEvent;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.sim.haproxy.HaproxySimulation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * HAProxy's observe/on-error checks in the command line: {@code check haproxy.cfg}, {@code run --haproxy}, a
 * {@code profile: haproxy} scenario's {@code run}, {@code sweep} and {@code export}.
 */
public final class HaproxyCommands extends ServerProfileCommands implements CheckFile {
    private static final Pattern SECTION = Pattern.compile("(?m)^\\s*(backend|listen)\\s+\\S+\\s*$");
    private static final Pattern SERVER = Pattern.compile("(?m)^\\s+server\\s+\\S+\\s+\\S+");
    private static final Pattern NAME = Pattern.compile("haproxy[^/]*\\.cfg");

    @Override
    public String name() {
        return HaproxyScenarioFormat.NAME;
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
        return check(text, source, null);
    }

    /** The findings of one backend ({@code check --backend NAME}), or of the only one. */
    public CheckInputs.Loaded check(String text, String source, String backend) {
        return new CheckInputs.Loaded(
                List.of(), HaproxyChecks.forBackend(HaproxyConfigReader.readText(text, source, backend), source));
    }

    @Override
    public Map<String, Object> block(Path file, String part) {
        HaproxySettings s = HaproxyConfigReader.read(file, part);
        return HaproxyBlock.toMap(s.backend(), s.servers());
    }

    @Override
    Map<String, Object> blockOf(ScenarioReader.Profiled resolved) {
        HaproxyBackend b = resolved.settings(HaproxyBackend.class);
        return HaproxyBlock.toMap(b.name(), b.servers());
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled resolved, String head) {
        HaproxyBackend backend = resolved.settings(HaproxyBackend.class);
        HaproxySimulation.Result r = HaproxySimulation.run(resolved.envoy().scenario(), backend.servers());
        List<ServerRun.Event> events = new ArrayList<>();
        for (HaproxyEvent e : r.events()) {
            Map<String, Long> figures = new LinkedHashMap<>();
            figures.put("health", (long) e.health());
            events.add(new ServerRun.Event(
                    e.timeNanos(), e.action(), e.endpointName(), e.reason().outputName(), "", figures));
        }
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("error-limit trips", r.trips());
        counters.put("health checks", r.checks());
        List<String> servers = backend.hosts();
        return new ServerRun(
                name(),
                head + ": backend " + backend.name() + ", " + servers.size() + " servers",
                resolved.envoy().scenario(),
                r.requests(),
                r.clientErrors(),
                "no server available (503)",
                r.noServer(),
                servers,
                r.attempts(),
                perServer(servers.size(), r::downs),
                counters,
                events);
    }
}
