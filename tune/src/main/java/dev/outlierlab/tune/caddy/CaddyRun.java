package dev.outlierlab.tune.caddy;

import dev.outlierlab.engine.caddy.CaddyEvent;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.sim.caddy.CaddySimulation;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.EjectionTally;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.RunProfile;
import dev.outlierlab.tune.Setting;
import dev.outlierlab.tune.SuiteScenario;
import java.util.HashSet;
import java.util.Set;

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
        return new CaddyRun(new CaddyPassiveConfig(
                config.upstreams(),
                0,
                config.maxFails(),
                config.unhealthyStatus(),
                config.unhealthyLatencyNanos(),
                config.tryDurationNanos(),
                config.tryIntervalNanos(),
                config.retries(),
                config.policy()));
    }

    @Override
    public Setting setting() {
        return CaddyTuneTarget.setting(config);
    }

    private CaddyPassiveConfig withUpstreams(Scenario s) {
        return new CaddyPassiveConfig(
                s.cluster().hosts(),
                config.failDurationNanos(),
                config.maxFails(),
                config.unhealthyStatus(),
                config.unhealthyLatencyNanos(),
                config.tryDurationNanos(),
                config.tryIntervalNanos(),
                config.retries(),
                config.policy());
    }

    /** A run's figures: one detector (the Caddy process). */
    private static RunFigures figures(SuiteScenario suite, long duration, CaddySimulation.Result r) {
        EjectionTally tally = new EjectionTally(suite);
        Set<Integer> out = new HashSet<>();
        long ejections = 0;
        int most = 0;
        for (CaddyEvent e : r.events()) {
            if (e.eject()) {
                ejections++;
                tally.eject(0, e.endpointName(), e.timeNanos());
                out.add(e.endpoint());
                most = Math.max(most, out.size());
            } else {
                tally.uneject(0, e.endpointName(), e.timeNanos());
                out.remove(e.endpoint());
            }
        }
        long attempts = 0;
        for (long a : r.attempts()) {
            attempts += a;
        }
        return new RunFigures(
                r.requests(),
                r.clientErrors(),
                r.requestsDuringFault(),
                r.errorsDuringFault(),
                ejections,
                0,
                tally.falseEjections(),
                tally.healthyNanos(duration, 1),
                most,
                0,
                tally.detectNanos(),
                tally.returnNanos(duration),
                attempts,
                r.clientErrors() - r.noUpstreams());
    }
}
