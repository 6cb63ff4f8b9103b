package dev.outlierlab.sim.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.RoutingStrategy;
import dev.outlierlab.engine.stage.StageMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The gateway's work estimate: its figures, and its attempts an upper bound on what runs make. */
class GatewayWorkEstimateTest {
    @Test
    void countsEveryRequestAndTheMostFallbacksOfRequestsSentDuringAFault() {
        // 6 endpoints, 600 rps for 300 s, e0 failing from 30 s to 240 s, two fallbacks
        GatewayScenario s = GatewayScenarios.endpoints(6)
                .fault(1, 33, 30, 240)
                .routing(RoutingStrategy.ROUND_ROBIN, List.of(), 2)
                .build();
        GatewayWorkEstimate w = GatewayWorkEstimate.of(s);
        assertThat(w.requests()).isEqualTo(180_000);
        assertThat(w.attempts())
                .as("180,000 + 126,000 requests in the fault x 2 fallbacks")
                .isEqualTo(432_000);
        assertThat(w.units())
                .as("(requests + attempts) x (1 + 6 endpoints / 10)")
                .isEqualTo(979_200);
    }

    @Test
    void fallbacksAreBoundedByTheEndpointsAndNeedAFault() {
        GatewayScenario two = GatewayScenarios.endpoints(2)
                .fault(1, 100, 0, 300)
                .routing(RoutingStrategy.ROUND_ROBIN, List.of(), 5)
                .build();
        assertThat(GatewayWorkEstimate.of(two).attempts())
                .as("at most 2 attempts with 2 endpoints")
                .isEqualTo(360_000);
        GatewayScenario noFault = GatewayScenarios.endpoints(2)
                .routing(RoutingStrategy.ROUND_ROBIN, List.of(), 5)
                .build();
        assertThat(GatewayWorkEstimate.of(noFault).attempts()).isEqualTo(180_000);
        assertThat(GatewayWorkEstimate.of(noFault).units()).as("360,000 x 1.2").isEqualTo(432_000);
    }

    @Test
    void aYearOfTrafficSaturatesNothingAndSumsOverASweep() {
        GatewayScenario year = GatewayScenarios.endpoints(100)
                .duration(365L * 24 * 3600)
                .rps(1_000_000)
                .fault(100, 100, 0, 365L * 24 * 3600)
                .routing(RoutingStrategy.ROUND_ROBIN, List.of(), 1000)
                .build();
        GatewayWorkEstimate w = GatewayWorkEstimate.of(year);
        assertThat(w.requests()).isEqualTo(31_536_000_000_000L);
        assertThat(w.attempts()).isEqualTo(3_153_600_000_000_000L);
        assertThat(w.units()).as("x (1 + 100 / 10)").isEqualTo((w.requests() + w.attempts()) * 11);
        assertThat(w.plus(w).units()).isEqualTo(2 * w.units());
        GatewayScenario longer = GatewayScenarios.endpoints(1000)
                .duration(3650L * 24 * 3600)
                .rps(1_000_000_000)
                .fault(1000, 100, 0, 3650L * 24 * 3600)
                .routing(RoutingStrategy.ROUND_ROBIN, List.of(), 1000)
                .build();
        assertThat(GatewayWorkEstimate.of(longer).units())
                .as("saturated, not wrapped")
                .isEqualTo(Long.MAX_VALUE);
        assertThat(w.plus(GatewayWorkEstimate.NONE)).isEqualTo(w);
    }

    @Test
    void theEstimatedAttemptsAreAtLeastThoseOfTheRun() {
        for (long seed = 1; seed <= 200; seed++) {
            GatewayScenario s = RandomGatewayScenarios.of(seed, StageMode.values()[(int) (seed % 3)]);
            GatewayWorkEstimate w = GatewayWorkEstimate.of(s);
            GatewaySummary run = GatewaySimulation.run(s).summary();
            assertThat(w.requests()).as("seed %d", seed).isEqualTo(run.requests());
            assertThat(w.attempts()).as("seed %d", seed).isGreaterThanOrEqualTo(run.attempts());
        }
    }
}
