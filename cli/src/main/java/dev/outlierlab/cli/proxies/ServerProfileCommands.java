package dev.outlierlab.cli.proxies;

import dev.outlierlab.cli.InputFiles;
import dev.outlierlab.cli.ProfileRunner;
import dev.outlierlab.cli.RunRequest;
import dev.outlierlab.cli.ScenarioExport;
import dev.outlierlab.cli.ServerConfigRun;
import dev.outlierlab.cli.SweepRows;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.trace.TraceReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.report.TuneTrace;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRunJson;
import dev.outlierlab.report.proxies.ServerRunText;
import dev.outlierlab.report.proxies.ServerRuns;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.trace.TraceOrderException;
import dev.outlierlab.sim.trace.TraceRecord;
import dev.outlierlab.tune.RunProfile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What the commands share for a proxy's own passive checks (nginx, HAProxy, Caddy): {@code run} of a scenario of the
 * profile (text or JSON), its row of a {@code sweep}, its {@code export --to scenario}; each profile says how its
 * simulation's result reads as a {@link ServerRun} and how its settings write as its scenario block.
 */
abstract class ServerProfileCommands
        implements Profile, ProfileRunner, SweepRows, ScenarioExport, ServerConfigRun, TuneTrace {
    /**
     * The run of a scenario of this profile, with this first line: its traffic and faults, or, when {@code trace} is
     * not null, the trace's outcomes on its servers.
     */
    abstract ServerRun simulate(ScenarioReader.Profiled resolved, String head, Iterator<TraceRecord> trace);

    /** The profile's scenario block of these settings. */
    abstract Map<String, Object> blockOf(ScenarioReader.Profiled resolved);

    @Override
    public String run(ScenarioReader.Profiled resolved, RunRequest request) {
        return run(resolved, request, "outlier-lab run", List.of());
    }

    @Override
    public String run(ScenarioReader.Profiled resolved, RunRequest request, String head, List<String> notModelled) {
        ServerRun r;
        if (request.traceIn() == null) {
            request.start(estimate(resolved.envoy().scenario()), GatewayWorkEstimate.NONE);
            r = simulate(resolved, head, null);
        } else {
            Path trace = request.traceIn();
            Scenario s = resolved.envoy().scenario();
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < s.cluster().hosts().size(); i++) {
                index.put(s.cluster().hosts().get(i), i);
            }
            request.start(new WorkEstimate(0, 0, 0), GatewayWorkEstimate.NONE);
            ScenarioReader.Profiled replayed = resolved.withEnvoy(
                    new ScenarioReader.Loaded(s.toBuilder().faults(List.of()).build(), true));
            try (BoundedLineReader reader = InputFiles.open(trace)) {
                r = simulate(
                        replayed,
                        head + " (replayed from " + trace + ")",
                        TraceReader.records(reader, trace.toString(), index));
            } catch (TraceOrderException e) {
                throw new InputException(trace + ":" + e.line() + ": " + e.detail());
            }
        }
        request.finish();
        return switch (request.format()) {
            case "json" -> ServerRunJson.toJson(r, scenario(resolved), notModelled);
            case "text" -> ServerRunText.render(r, request.maxEvents(), notModelled);
            default ->
                throw new InputException(
                        "--format " + request.format() + ": a profile: " + name() + " run is written as text or json");
        };
    }

    private static WorkEstimate estimate(Scenario s) {
        long seconds = Math.max(1, s.durationNanos() / Durations.SECOND);
        return new WorkEstimate(Math.multiplyExact(s.traffic().rps(), seconds), 0, 0);
    }

    @Override
    public List<String> columns() {
        return List.of("ejections", "client 5xx", "client 5xx %", "none left");
    }

    @Override
    public Work work(ScenarioReader.Profiled resolved) {
        return new Work(estimate(resolved.envoy().scenario()), GatewayWorkEstimate.NONE);
    }

    @Override
    public Row run(ScenarioReader.Profiled resolved, RunWatcher watcher) {
        ServerRun r = simulate(resolved, name(), null);
        return new Row(
                List.of(
                        Long.toString(r.totalEjections()),
                        Long.toString(r.clientErrors()),
                        Numbers.two(r.clientErrorPercent()),
                        Long.toString(r.noneLeftCount())),
                ServerRunJson.summary(r));
    }

    @Override
    public Map<String, Object> scenario(ScenarioReader.Profiled resolved) {
        return ServerRuns.scenario(resolved, blockOf(resolved));
    }

    /**
     * {@code tune --explain} of a recommendation for this server: its lab scenario (the profile's block as the run has
     * it, {@link RunProfile#labScenario}) run and shown as {@code run} shows a scenario of the profile; null for
     * another profile's run.
     */
    @Override
    public String trace(RunProfile profile, Scenario scenario, int events) {
        Map<String, Object> lab = profile.labScenario(scenario);
        if (!name().equals(lab.get("profile"))) {
            return null;
        }
        ScenarioReader.Profiled resolved = ScenarioReader.readPlain(lab, "tune --explain", List.of());
        return ServerRunText.render(simulate(resolved, "outlier-lab tune --explain", null), events, List.of());
    }

    @Override
    public String envoyCluster(ScenarioReader.Profiled resolved) {
        throw new InputException("--to envoy: a profile: " + name() + " scenario has no Envoy cluster; use --to"
                + " scenario to write it with every default filled in");
    }
}
