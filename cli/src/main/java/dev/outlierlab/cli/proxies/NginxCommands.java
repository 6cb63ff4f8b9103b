package dev.outlierlab.cli.proxies;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.proxies.NginxChecks;
import dev.outlierlab.cli.CheckFile;
import dev.outlierlab.config.nginx.NginxBlock;
import dev.outlierlab.config.nginx.NginxScenarioFormat;
import dev.outlierlab.config.nginx.NginxUpstreamReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.nginx.NginxEvent;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.sim.nginx.NginxRunResult;
import dev.outlierlab.sim.nginx.NginxSimulation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * nginx's passive checks in the command line: {@code check nginx.conf}, {@code run --nginx nginx.conf}, a
 * {@code profile: nginx} scenario's {@code run}, {@code sweep} and {@code export}.
 */
public final class NginxCommands extends ServerProfileCommands implements CheckFile {
    private static final Pattern UPSTREAM = Pattern.compile("(?m)^\\s*upstream\\s+[^\\s{;]+\\s*\\{");
    private static final Pattern NAME = Pattern.compile("nginx[^/]*\\.conf");

    @Override
    public String name() {
        return NginxScenarioFormat.NAME;
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
        return check(text, source, null);
    }

    /** The findings of one upstream ({@code check --upstream NAME}), or of the only one. */
    public CheckInputs.Loaded check(String text, String source, String upstream) {
        return new CheckInputs.Loaded(
                List.of(), NginxChecks.forUpstream(NginxUpstreamReader.readText(text, source, upstream)));
    }

    @Override
    public Map<String, Object> block(Path file, String part) {
        return NginxBlock.toMap(NginxUpstreamReader.read(file, part).config());
    }

    @Override
    Map<String, Object> blockOf(ScenarioReader.Profiled resolved) {
        return NginxBlock.toMap(resolved.settings(NginxUpstreamConfig.class));
    }

    @Override
    ServerRun simulate(ScenarioReader.Profiled resolved, String head) {
        NginxUpstreamConfig config = resolved.settings(NginxUpstreamConfig.class);
        NginxRunResult r = NginxSimulation.run(resolved.envoy().scenario(), config);
        List<ServerRun.Event> events = new ArrayList<>();
        for (NginxEvent e : r.events()) {
            Map<String, Long> figures = new LinkedHashMap<>();
            figures.put("worker", (long) e.worker());
            figures.put("fails", e.fails());
            figures.put("max_fails", (long) e.maxFails());
            if (e.action() == NginxEvent.Action.EJECT) {
                figures.put("probe_at_ns", e.returnAtNanos());
            }
            events.add(new ServerRun.Event(
                    e.timeNanos(),
                    e.action().outputName(),
                    e.endpointName(),
                    e.reason().outputName(),
                    e.reason().outputName() + "  worker " + e.worker(),
                    figures));
        }
        return new ServerRun(
                name(),
                head + ": upstream " + config.name() + ", " + r.hosts().size() + " servers, " + r.workers()
                        + (r.workers() == 1 ? " counting worker" : " counting workers (no zone)")
                        + ", proxy_next_upstream "
                        + String.join(" ", config.nextUpstream().words()),
                resolved.envoy().scenario(),
                r.requests(),
                r.clientErrors(),
                "no live upstreams (502)",
                r.noLiveUpstreams(),
                r.hosts(),
                r.attempts(),
                perServer(r.hosts().size(), r::ejections),
                Map.of(),
                events);
    }

    static String fileName(String source) {
        Path name = Path.of(source).getFileName();
        return name == null ? "" : name.toString();
    }
}
