package dev.outlierlab.cli.proxies;

import dev.outlierlab.cli.ProfileRunner;
import dev.outlierlab.cli.RunRequest;
import dev.outlierlab.cli.ScenarioExport;
import dev.outlierlab.cli.ServerConfigRun;
import dev.outlierlab.cli.SweepRows;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.profile.Profile;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.report.proxies.ServerRun;
import dev.outlierlab.report.proxies.ServerRunJson;
import dev.outlierlab.report.proxies.ServerRunText;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import java.util.Map;

/**
 * What the commands share for a proxy's own passive checks (nginx, HAProxy, Caddy): {@code run} of a scenario of the
 * profile (text or JSON), its row of a {@code sweep}, its {@code export --to scenario}; each profile says how its
 * simulation's result reads as a {@link ServerRun} and how its settings write as its scenario block.
 */
abstract class ServerProfileCommands implements Profile, ProfileRunner, SweepRows, ScenarioExport, ServerConfigRun {
    /** The run of a scenario of this profile, with this first line. */
    abstract ServerRun simulate(ScenarioReader.Profiled resolved, String head);

    /** The profile's scenario block of these settings. */
    abstract Map<String, Object> blockOf(ScenarioReader.Profiled resolved);

    @Override
    public String run(ScenarioReader.Profiled resolved, RunRequest request) {
        return run(resolved, request, "outlier-lab run");
    }

    @Override
    public String run(ScenarioReader.Profiled resolved, RunRequest request, String head) {
        request.start(estimate(resolved.envoy().scenario()), GatewayWorkEstimate.NONE);
        ServerRun r = simulate(resolved, head);
        request.finish();
        return switch (request.format()) {
            case "json" -> ServerRunJson.toJson(r, scenario(resolved));
            case "text" -> ServerRunText.render(r, request.maxEvents());
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
        ServerRun r = simulate(resolved, name());
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
        Map<String, Object> m = ScenarioWriter.toMap(resolved.envoy().scenario());
        m.remove("outlier_detection");
        m.remove("health_checks");
        m.put("profile", name());
        m.put(name(), blockOf(resolved));
        return m;
    }

    @Override
    public String envoyCluster(ScenarioReader.Profiled resolved) {
        throw new InputException("--to envoy: a profile: " + name() + " scenario has no Envoy cluster; use --to"
                + " scenario to write it with every default filled in");
    }

    /** Counts per server of what {@code count} says about server {@code i}. */
    static long[] perServer(int n, java.util.function.IntToLongFunction count) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = count.applyAsLong(i);
        }
        return out;
    }
}
