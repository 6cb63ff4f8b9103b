package dev.outlierlab.tune.caddy;

import dev.outlierlab.config.caddy.CaddyBlock;
import dev.outlierlab.config.caddy.CaddyScenarioFormat;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.sim.caddy.CaddySimulation;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.ServerFigures;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.SuiteScenario;
import java.util.List;
import java.util.Map;

/**
 * Caddy's passive health checks ({@link CaddySimulation}: failures remembered for {@code fail_duration}, an upstream
 * unhealthy while {@code max_fails} are remembered) over the scenario's hosts, traffic and faults; the scenario's
 * hosts become the upstreams.
 *
 * @param config the handler as read from the user's file, or as the search wrote it
 */
public record CaddyRun(CaddyPassiveConfig config) implements RunProfile {
    @Override
    public RunFigures figures(SuiteScenario suite, Scenario scenario) {
        return figures(suite, scenario.durationNanos(), CaddySimulation.run(scenario, withUpstreams(scenario)));
    }

    /** The handler without passive checks ({@code fail_duration} 0). */
    @Override
    public RunProfile off() {
        return new CaddyRun(
                config.withPassive(0, config.maxFails(), config.unhealthyStatus(), config.unhealthyLatencyNanos()));
    }

    @Override
    public Setting setting() {
        return CaddyTuneTarget.setting(config);
    }

    /** A {@code profile: caddy} scenario with the handler as the run has it ({@code caddy:} block). */
    @Override
    public Map<String, Object> labScenario(Scenario scenario) {
        Map<String, Object> out = RunProfile.ofProfile(CaddyScenarioFormat.NAME, scenario);
        out.put(CaddyScenarioFormat.NAME, CaddyBlock.toMap(withUpstreams(scenario)));
        return out;
    }

    private CaddyPassiveConfig withUpstreams(Scenario s) {
        return config.withUpstreams(s.cluster().hosts());
    }

    /** A run's figures: one detector (the Caddy process); slow requests as the simulation counts them. */
    private static RunFigures figures(SuiteScenario suite, long duration, CaddySimulation.Result r) {
        List<ServerFigures.Decision> decisions = r.events().stream()
                .map(e -> new ServerFigures.Decision(0, e.endpoint(), e.endpointName(), e.timeNanos(), e.eject()))
                .toList();
        return ServerFigures.of(
                suite,
                duration,
                1,
                decisions,
                new ServerFigures.Counts(
                        r.requests(),
                        r.clientErrors(),
                        r.requestsDuringFault(),
                        r.errorsDuringFault(),
                        r.attempts(),
                        r.clientErrors() - r.noUpstreams(),
                        r.slowRequests(),
                        r.slowWaitNanos()));
    }
}
