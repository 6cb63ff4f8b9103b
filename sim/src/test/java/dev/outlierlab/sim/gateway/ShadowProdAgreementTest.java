package dev.outlierlab.sim.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Shadow and prod agree: over 300 seeded random scenarios, the first {@code would_eject} in shadow
 * is the first {@code eject} in prod (time, endpoint, process, reason and every number), and shadow sends
 * every attempt exactly where off does, with the same outcome.
 */
class ShadowProdAgreementTest {
    /** Every attempt as (request, attempt, endpoint, outcome). */
    private static final class Attempts implements GatewayObserver {
        final List<Long> rows = new ArrayList<>();

        @Override
        public void onAttempt(
                long request,
                int process,
                long nowNanos,
                int attempt,
                int endpoint,
                int outcome,
                GatewayDetector detector) {
            rows.add(request * 1_000_000_000L + attempt * 10_000_000L + endpoint * 1000L + outcome + 10);
        }
    }

    private static Optional<GatewayEvent> firstEjection(GatewayRunResult r) {
        return r.events().stream()
                .filter(e -> e.action() != GatewayAction.RETURN)
                .findFirst();
    }

    @Test
    void firstWouldEjectIsFirstEjectAndShadowRoutesLikeOff() {
        int withEjection = 0;
        for (long seed = 1; seed <= 300; seed++) {
            GatewayRunResult prod = GatewaySimulation.run(RandomGatewayScenarios.of(seed, StageMode.PROD));
            Attempts shadowAttempts = new Attempts();
            GatewayRunResult shadow =
                    GatewaySimulation.run(RandomGatewayScenarios.of(seed, StageMode.SHADOW), shadowAttempts);
            Attempts offAttempts = new Attempts();
            GatewayRunResult off = GatewaySimulation.run(RandomGatewayScenarios.of(seed, StageMode.OFF), offAttempts);

            Optional<GatewayEvent> p = firstEjection(prod);
            Optional<GatewayEvent> s = firstEjection(shadow);
            assertThat(s.isPresent()).as("seed %d", seed).isEqualTo(p.isPresent());
            if (p.isPresent()) {
                withEjection++;
                assertThat(p.get().action()).isEqualTo(GatewayAction.EJECT);
                assertThat(s.get().action()).isEqualTo(GatewayAction.WOULD_EJECT);
                assertThat(List.of(
                                s.get().timeNanos(),
                                s.get().endpoint(),
                                s.get().process(),
                                s.get().reason(),
                                s.get().evidence(),
                                s.get().returnAtNanos()))
                        .as("seed %d", seed)
                        .isEqualTo(List.of(
                                p.get().timeNanos(),
                                p.get().endpoint(),
                                p.get().process(),
                                p.get().reason(),
                                p.get().evidence(),
                                p.get().returnAtNanos()));
            }
            assertThat(shadowAttempts.rows).as("seed %d", seed).isEqualTo(offAttempts.rows);
            assertThat(shadow.summary().failedRequests())
                    .isEqualTo(off.summary().failedRequests());
            assertThat(off.events()).isEmpty();
        }
        // the property is only worth something if many scenarios eject at all
        assertThat(withEjection).isGreaterThan(100);
    }
}
