package dev.outlierlab.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Endpoints added to and removed from a running gateway detector: the others keep their windows, counts and
 * ejections (as Envoy's detector keeps its other hosts' monitors), an added one starts empty, and a removed
 * ejected one leaves without a return event.
 */
class GatewayMembershipTest {
    private static final long S = 1_000_000_000L;

    @Test
    void theOthersKeepTheirStateAndTheStatisticalRuleSeesTheNewMembers() {
        List<GatewayEvent> events = new ArrayList<>();
        GatewayConfig config = new GatewayConfig(StageMode.PROD, 60 * S, S, 5, 2.0, PeerSet.ALL, 1.0, 0, 30 * S, 1);
        GatewayDetector d = new GatewayDetector(config, List.of("e0", "e1", "e2", "e3", "e4"), 0, events::add);
        // e0 gets nothing; e1 to e4 20 attempts each over 20 s, e2 failing 5 of its 20. With one bad endpoint
        // among n scored and the others at 100 %, the statistical rule (factor 2) ejects only when n > 5:
        // here n = 4.
        for (int i = 0; i < 20; i++) {
            for (int e = 1; e < 5; e++) {
                d.record(e, e == 2 && i % 4 == 0 ? 503 : 200, i * S);
            }
        }
        assertThat(events).isEmpty();
        d.removeEndpoint(0);
        assertThat(d.endpointCount()).isEqualTo(4);
        assertThat(d.endpointName(1)).isEqualTo("e2");
        assertThat(d.window(1).attempts()).isEqualTo(20);
        assertThat(d.window(1).failures()).isEqualTo(5);
        int e5 = d.addEndpoint("e5");
        int e6 = d.addEndpoint("e6");
        assertThat(List.of(e5, e6)).containsExactly(4, 5);
        assertThat(d.window(e5).attempts()).isZero();
        // Five healthy attempts each make e5 and e6 scored peers (min_requests 5): six scored, and e2's next
        // failure is judged against them.
        for (int i = 0; i < 5; i++) {
            d.record(e5, 200, 20 * S);
            d.record(e6, 200, 20 * S);
        }
        assertThat(events).isEmpty();
        d.record(1, 503, 20 * S);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.endpointName()).isEqualTo("e2");
            assertThat(e.endpoint()).isEqualTo(1);
            SuccessRateJudgement j = (SuccessRateJudgement) e.evidence();
            assertThat(j.attempts()).isEqualTo(21);
            assertThat(j.failures()).isEqualTo(6);
            assertThat(j.scored()).isEqualTo(6);
            assertThat(j.peers()).isEqualTo(6);
        });
        assertThat(d.ejectedCount()).isEqualTo(1);
        d.removeEndpoint(1);
        assertThat(d.ejectedCount()).isZero();
        assertThat(d.endpointCount()).isEqualTo(5);
        assertThat(d.isEjected(1)).isFalse();
        assertThat(d.endpointName(1)).isEqualTo("e3");
        d.runDue(100 * S);
        assertThat(events).hasSize(1);
    }
}
