package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The gateway limits' bounds are bounds: over seeded random small scenarios (endpoints, processes, traffic,
 * faults of every pattern, modes, peer sets, min_stdev, trips, ejection times, fallbacks), the run's attempts
 * never pass {@link GatewayLimits#attempts} and its decisions never pass {@link GatewayLimits#decisionBound},
 * and the timeline has one interval per ejection.
 */
class GatewayLimitsTest {
    @Test
    void attemptAndDecisionBoundsHoldOnRandomScenarios() {
        Random random = new Random(20261130L);
        long tightest = Long.MAX_VALUE;
        for (int i = 0; i < 80; i++) {
            int endpoints = 1 + random.nextInt(7);
            int duration = 5 + random.nextInt(40);
            String pattern = List.of("even", "random", "bursts").get(random.nextInt(3));
            // bursts need runs of successes between them: at most 50 % with the default burst length of 5
            List<Integer> rates = pattern.equals("bursts") ? List.of(10, 33, 50) : List.of(0, 10, 33, 50, 90, 100);
            List<String> sets = List.of(
                    "profile=gateway",
                    "seed=" + random.nextInt(1000),
                    "cluster.hosts=" + endpoints,
                    "traffic.rps=" + (5 + random.nextInt(200)),
                    "duration=" + duration + "s",
                    "faults[0].hosts=" + (1 + random.nextInt(endpoints)),
                    "faults[0].start=0s",
                    "faults[0].end=" + duration + "s",
                    "faults[0].error_rate=" + rates.get(random.nextInt(rates.size())),
                    "faults[0].pattern=" + pattern,
                    "gateway.mode=" + (random.nextBoolean() ? "prod" : "shadow"),
                    "gateway.window=" + (1 + random.nextInt(20)) + "s",
                    "gateway.min_requests=" + (1 + random.nextInt(6)),
                    "gateway.peer_set=" + (random.nextBoolean() ? "all" : "others"),
                    "gateway.min_stdev=" + (random.nextBoolean() ? "0" : "1"),
                    "gateway.consecutive_failures=" + random.nextInt(4),
                    "gateway.ejection_time=" + (1 + random.nextInt(10)) + "s",
                    "gateway.processes=" + (1 + random.nextInt(3)),
                    "routing.fallbacks=" + random.nextInt(3));
            GatewayScenario s = ScenarioReader.defaultsProfiled(sets).gateway();
            GatewayRunResult r = GatewaySimulation.run(s);
            assertThat(r.summary().attempts()).as("%s", sets).isLessThanOrEqualTo(GatewayLimits.attempts(s));
            assertThat((long) r.events().size()).as("%s", sets).isLessThanOrEqualTo(GatewayLimits.decisionBound(s));
            long ejections = r.events().stream()
                    .filter(e -> e.action() != GatewayAction.RETURN)
                    .count();
            assertThat(GatewayLabRun.timeline(r)).hasSize((int) ejections);
            if (ejections > 0) {
                tightest = Math.min(
                        tightest, GatewayLimits.decisionBound(s) / r.events().size());
            }
        }
        // the bound is not vacuous: some run comes within a small factor of it
        assertThat(tightest).isLessThanOrEqualTo(4);
    }
}
