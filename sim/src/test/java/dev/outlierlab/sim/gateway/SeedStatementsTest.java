package dev.outlierlab.sim.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.gateway.ConsecutiveTrip;
import dev.outlierlab.engine.gateway.EjectionReason;
import dev.outlierlab.engine.gateway.GatewayAction;
import dev.outlierlab.engine.gateway.GatewayDetector;
import dev.outlierlab.engine.gateway.GatewayEvent;
import dev.outlierlab.engine.gateway.SuccessRateJudgement;
import dev.outlierlab.engine.stage.StageMode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The statements of docs/gateway.md, each run end to end through the simulator with its
 * figures. 600 rps for 300 s with a fault from 30 s to 240 s is the lab's default traffic.
 */
class SeedStatementsTest {
    private static List<GatewayEvent> ejections(GatewayRunResult r) {
        return r.events().stream()
                .filter(e -> e.action() != GatewayAction.RETURN)
                .toList();
    }

    @Test
    void twoProvidersOneFailingAThirdNothingEverEjects() {
        GatewayRunResult r = GatewayScenarios.named("azure", "openai")
                .rps(10)
                .fault(1, 33, 0, 300)
                .run();
        assertThat(r.events()).isEmpty();
        assertThat(r.summary().attemptsPerEndpoint()).containsExactly(1500L, 1500L);
        // 33 % of azure's 1,500 requests fail, spread evenly: never three in a row, and two endpoints can never
        // be 2 standard deviations apart
        assertThat(r.summary().failedRequests()).isEqualTo(495);
    }

    @Test
    void twoProvidersOneDeadTheHardTripEjectsOnItsThirdFailureAndTrafficMovesForThirtySeconds() {
        long[] azureAttemptsWhileOut = new long[1];
        GatewayRunResult r = GatewaySimulation.run(
                GatewayScenarios.named("azure", "openai")
                        .rps(10)
                        .fault(1, 100, 0, 300)
                        .build(),
                new GatewayObserver() {
                    @Override
                    public void onAttempt(
                            long request,
                            int process,
                            long nowNanos,
                            int attempt,
                            int endpoint,
                            int outcome,
                            GatewayDetector detector) {
                        if (endpoint == 0 && nowNanos > 400_000_000L && nowNanos < 30_400_000_000L) {
                            azureAttemptsWhileOut[0]++;
                        }
                    }
                });
        GatewayEvent first = r.events().get(0);
        // azure gets requests 0, 2, 4 at 0 s, 0.2 s, 0.4 s: the third failure ejects it
        assertThat(first)
                .isEqualTo(new GatewayEvent(
                        400_000_000L,
                        0,
                        0,
                        "azure",
                        GatewayAction.EJECT,
                        EjectionReason.CONSECUTIVE,
                        new ConsecutiveTrip(3, 3),
                        30_400_000_000L,
                        0));
        assertThat(r.events().get(1).action()).isEqualTo(GatewayAction.RETURN);
        assertThat(r.events().get(1).timeNanos()).isEqualTo(30_400_000_000L);
        assertThat(azureAttemptsWhileOut[0]).isZero();
        // ten rounds of three failures and thirty seconds out: 30 attempts to azure, the other 2,970 to openai
        assertThat(r.summary().consecutiveEjections()).isEqualTo(10);
        assertThat(r.summary().attemptsPerEndpoint()).containsExactly(30L, 2970L);
        assertThat(r.summary().failedRequests()).isEqualTo(30);
    }

    @Test
    void oneEndpointTheHardTripEjectsItAndTheGuardKeepsItInEveryList() {
        GatewayRunResult r =
                GatewayScenarios.named("only").rps(10).fault(1, 100, 0, 300).run();
        assertThat(r.events().get(0).timeNanos()).isEqualTo(200_000_000L);
        assertThat(r.summary().consecutiveEjections()).isEqualTo(10);
        assertThat(r.summary().attemptsPerEndpoint()).containsExactly(3000L);
        // every request while it is ejected keeps it through the guard: 3,000 requests less 3 per round
        assertThat(r.summary().keptAllStages()).isEqualTo(2970);
        assertThat(r.summary().ejectStages()).isZero();
        assertThat(r.summary().failedRequests()).isEqualTo(3000);
    }

    @Test
    void aUniformlyBadPoolEjectsNobodyStatistically() {
        GatewayRunResult r =
                GatewayScenarios.endpoints(10).rps(1000).fault(10, 50, 30, 240).run();
        assertThat(r.events()).isEmpty();
        assertThat(r.summary().failedRequests()).isEqualTo(105_000);
    }

    @Test
    void sixOrMoreWithOneBadTheStatisticalRuleEjectsIt() {
        for (int n = 6; n <= 8; n++) {
            GatewayRunResult r =
                    GatewayScenarios.endpoints(n).fault(1, 33, 30, 240).run();
            assertThat(r.summary().successRateEjections()).as("%d endpoints", n).isEqualTo(7);
            assertThat(r.summary().consecutiveEjections()).isZero();
        }
        GatewayRunResult six =
                GatewayScenarios.endpoints(6).fault(1, 33, 30, 240).run();
        SuccessRateJudgement j = (SuccessRateJudgement) six.events().get(0).evidence();
        assertThat(six.events().get(0).timeNanos()).isEqualTo(32_660_000_000L);
        assertThat(j.attempts()).isEqualTo(3267);
        assertThat(j.failures()).isEqualTo(88);
        assertThat(j.ratePercent()).isCloseTo(97.306, within(1e-3));
        assertThat(j.thresholdPercent()).isCloseTo(97.543, within(1e-3));
        assertThat(j.stdevPercent()).isCloseTo(1.004, within(1e-3));
        // the Envoy default scenario's 6,930 failed requests become 98
        assertThat(six.summary().failedRequests()).isEqualTo(98);
    }

    @Test
    void twoToFourWithOneBadItNeverDoesAndFiveOnlyByARoundingTie() {
        for (int n = 2; n <= 4; n++) {
            GatewayRunResult r =
                    GatewayScenarios.endpoints(n).fault(1, 33, 30, 240).run();
            assertThat(r.events()).as("%d endpoints", n).isEmpty();
            assertThat(r.summary().failedRequests()).isEqualTo(Math.round(126_000.0 / n * 0.33));
        }
        GatewayRunResult five =
                GatewayScenarios.endpoints(5).fault(1, 33, 30, 240).run();
        assertThat(five.summary().successRateEjections()).isEqualTo(7);
        for (GatewayEvent e : ejections(five)) {
            SuccessRateJudgement j = (SuccessRateJudgement) e.evidence();
            // the four others all at 100 %: the bad one lies exactly 2 standard deviations below the mean, and
            // only the last bit of the threshold's rounding puts it strictly below
            assertThat(j.ratePercent()).isLessThan(j.thresholdPercent()).isCloseTo(j.thresholdPercent(), within(1e-12));
        }
    }

    @Test
    void sixAllFailingAThirdEvenlyNobodyWithTheFloorAndOneFailureDifferencesWithout() {
        GatewayRunResult floor =
                GatewayScenarios.endpoints(6).fault(6, 33, 30, 240).run();
        assertThat(floor.events()).isEmpty();
        assertThat(floor.summary().judgementsBelowMinStdev()).isGreaterThan(0);
        GatewayRunResult noFloor =
                GatewayScenarios.endpoints(6).fault(6, 33, 30, 240).minStdev(0).run();
        List<GatewayEvent> out = ejections(noFloor);
        assertThat(out).isNotEmpty();
        SuccessRateJudgement first = (SuccessRateJudgement) out.get(0).evidence();
        // one failure more among thousands of attempts: a spread of hundredths of a point "is" 2 stdev
        assertThat(first.stdevPercent()).isLessThan(0.05);
        assertThat(first.meanPercent() - first.ratePercent()).isLessThan(0.1);
    }

    @Test
    void shadowNamesTheSameEndpointAtTheSameFirstMomentAndChangesNoRouting() {
        GatewayScenarios base = GatewayScenarios.endpoints(6).fault(1, 33, 30, 240);
        GatewayRunResult prod = base.run();
        GatewayRunResult shadow = base.mode(StageMode.SHADOW).run();
        GatewayRunResult off = base.mode(StageMode.OFF).run();
        GatewayEvent p = prod.events().get(0);
        GatewayEvent s = shadow.events().get(0);
        assertThat(s.action()).isEqualTo(GatewayAction.WOULD_EJECT);
        assertThat(List.of(s.timeNanos(), s.endpoint(), s.process(), s.evidence()))
                .isEqualTo(List.of(p.timeNanos(), p.endpoint(), p.process(), p.evidence()));
        assertThat(shadow.summary().attemptsPerEndpoint())
                .isEqualTo(off.summary().attemptsPerEndpoint())
                .containsOnly(30_000L);
        assertThat(shadow.summary().failedRequests())
                .isEqualTo(off.summary().failedRequests())
                .isEqualTo(6930);
        assertThat(shadow.summary().wouldEjectStages()).isEqualTo(prod.summary().ejectStages());
        assertThat(off.events()).isEmpty();
    }

    @Test
    void twoProcessesWithAlternatingRequestsEjectTheSameEndpointAtDifferentMoments() {
        GatewayRunResult r =
                GatewayScenarios.endpoints(6).fault(1, 33, 30, 240).processes(2).run();
        GatewayEvent firstP0 =
                r.events().stream().filter(e -> e.process() == 0).findFirst().orElseThrow();
        GatewayEvent firstP1 =
                r.events().stream().filter(e -> e.process() == 1).findFirst().orElseThrow();
        assertThat(firstP0.endpoint()).isZero();
        assertThat(firstP1.endpoint()).isZero();
        assertThat(firstP1.timeNanos()).isEqualTo(32_561_666_666L);
        assertThat(firstP0.timeNanos()).isEqualTo(32_740_000_000L);
    }
}
