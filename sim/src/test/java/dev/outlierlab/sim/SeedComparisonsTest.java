package dev.outlierlab.sim;

import static dev.outlierlab.sim.Scenarios.S;
import static dev.outlierlab.sim.Scenarios.config;
import static dev.outlierlab.sim.Scenarios.fault;
import static dev.outlierlab.sim.Scenarios.of;
import static dev.outlierlab.sim.Scenarios.scenario;
import static dev.outlierlab.sim.Scenarios.times;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The "Run controlled comparisons" of docs/seed-comparisons.md, one change at a time from the defaults (six hosts, 600 rps, host-0
 * failing 33 % from 30 s to 240 s). Host-0 gets 100 requests a second; each 10 s interval it has 1000
 * requests, of which exactly 330 fail (spec 5), so its rate is 67 %.
 */
class SeedComparisonsTest {
    private static final OutlierDetectionConfig CAP_34 = config(OutlierSetting.MAX_EJECTION_PERCENT, 34);

    @Test
    void alwaysEjectOneHostInsteadOfTheCapGivesTheSameResult() {
        RunResult cap34 = Simulation.run(Scenario.defaults().withOutlierDetection(CAP_34));
        RunResult always = Simulation.run(
                Scenario.defaults().withOutlierDetection(config(OutlierSetting.ALWAYS_EJECT_ONE_HOST, true)));
        assertThat(times(always, EventAction.EJECT)).containsExactly(40 * S, 80 * S, 150 * S);
        assertThat(times(always, EventAction.UNEJECT)).containsExactly(70 * S, 140 * S, 240 * S);
        assertThat(always.summary().failedDuringFault())
                .isEqualTo(cap34.summary().failedDuringFault());
        assertThat(always.summary().failedDuringFault()).isEqualTo(990);
        // 990 of 126000 = 0.786 %, "0.8 percent" in docs/seed-comparisons.md
        assertThat(always.summary().failedPercentDuringFault()).isBetween(0.785, 0.786);
    }

    @Test
    void beforeOnePointTwentyEightTheMultiplierDropsAtTheStartOfEveryTick() {
        // Envoy 1.27's checkHostForUneject: a host not ejected loses one step of its multiplier at every tick, before
        // detection. Host-0 returns at 70 s (multiplier 1), drops to 0 at the 80 s tick and is ejected again for
        // 1 x 30 s: every ejection lasts 30 s. From 1.28 (pull 29711) the drop waits a whole interval after the
        // return and comes at the tick's end, so the 80 s ejection gets multiplier 2 (60 s) and the third is at 150 s.
        RunResult r = Simulation.run(
                Scenario.defaults().withOutlierDetection(CAP_34).withEnvoyVersion(EnvoyVersion.parse("1.27")));
        assertThat(times(r, EventAction.EJECT)).containsExactly(40 * S, 80 * S, 120 * S, 160 * S, 200 * S, 240 * S);
        assertThat(times(r, EventAction.UNEJECT)).containsExactly(70 * S, 110 * S, 150 * S, 190 * S, 230 * S, 270 * S);
        assertThat(of(r, EventAction.EJECT).stream()
                        .map(e -> e.ejection().multiplier())
                        .distinct()
                        .toList())
                .containsExactly(1L);
        RunResult now = Simulation.run(Scenario.defaults().withOutlierDetection(CAP_34));
        assertThat(times(now, EventAction.EJECT)).containsExactly(40 * S, 80 * S, 150 * S);
    }

    @Test
    void theSeedsSuccessRateFiguresForOneFaultyHost() {
        // rates 67 and 100 x5: mean 94.5, stdev sqrt((5 * 5.5^2 + 27.5^2) / 6) = sqrt(151.25) = 12.298,
        // threshold 94.5 - 1.9 * 12.298 = 71.13 -> 67 is an outlier
        RunResult r = Simulation.run(Scenario.defaults().withOutlierDetection(CAP_34));
        OutlierEvent first = of(r, EventAction.EJECT).get(0);
        var ev = (SuccessRateEvidence) first.evidence();
        assertThat(ev.hostSuccessRatePercent()).isEqualTo(67.0);
        assertThat(ev.meanPercent()).isEqualTo(94.5);
        assertThat(ev.stdevPercent()).isCloseTo(12.2984, Assertions.within(1e-4));
        assertThat(ev.thresholdPercent()).isCloseTo(71.1330, Assertions.within(1e-4));
    }

    @Test
    void withSuccessRateOffAPartialFailureIsNeverEjected() {
        // one failure in three never makes five in a row; success rate still detects, but enforcing 0
        RunResult r = Simulation.run(Scenario.defaults()
                .withOutlierDetection(CAP_34.toBuilder()
                        .set(OutlierSetting.ENFORCING_SUCCESS_RATE, 0)
                        .build()));
        assertThat(r.summary().ejectionsEnforced()).isZero();
        assertThat(r.summary().ejectionsUnenforced()).isEqualTo(21);
        // 21000 requests to host-0 in the fault, 33 of every 100 fail
        assertThat(r.summary().failed()).isEqualTo(6930);
    }

    @Test
    void atOneHundredPercentConsecutiveErrorsEjectAtThirtySeconds() {
        // host-0 gets requests i = 18000, 18006, ... from 30 s; the fifth, i = 18024, is at 18024 / 600 = 30.04 s.
        // Out 30 s -> back at the 70 s tick (60.04 > 60); again at 70.04 for 60 s -> back at 140; then 90 s -> 240
        Scenario s = scenario(
                6,
                50,
                600,
                300 * S,
                List.of(fault(1, 30 * S, 240 * S, 1_000_000, 500)),
                CAP_34.toBuilder().set(OutlierSetting.ENFORCING_SUCCESS_RATE, 0).build(),
                null);
        RunResult r = Simulation.run(s);
        assertThat(of(r, EventAction.EJECT)).extracting(OutlierEvent::type).containsOnly(EjectionType.CONSECUTIVE_5XX);
        assertThat(times(r, EventAction.EJECT)).containsExactly(30_040_000_000L, 70_040_000_000L, 140_040_000_000L);
        assertThat(times(r, EventAction.UNEJECT)).containsExactly(70 * S, 140 * S, 240 * S);
        // five failures before each ejection
        assertThat(r.summary().failed()).isEqualTo(15);
    }

    @Test
    void tenHostsAtThousandRpsLetTheDefaultCapEjectOne() {
        // 100 * 1 / 10 = 10 <= 10
        Scenario s = scenario(
                10,
                50,
                1000,
                300 * S,
                List.of(fault(1, 30 * S, 240 * S, 330_000, 503)),
                OutlierDetectionConfig.defaults(),
                null);
        RunResult r = Simulation.run(s);
        assertThat(times(r, EventAction.EJECT)).containsExactly(40 * S, 80 * S, 150 * S);
        assertThat(r.summary().ejectionsOverflow()).isZero();
        assertThat(r.summary().maxEjectedAtOnce()).isEqualTo(1);
    }

    @Test
    void twoFaultyHostsMoveTheMeanAndSpreadSoNeitherIsEjected() {
        // rates 67 x2 and 100 x4: mean 89, variance (4 * 11^2 + 2 * 22^2) / 6 = 242, stdev 15.56,
        // threshold 89 - 29.56 = 59.44 < 67
        Scenario s = scenario(6, 50, 600, 300 * S, List.of(fault(2, 30 * S, 240 * S, 330_000, 503)), CAP_34, null);
        RunResult r = Simulation.run(s);
        assertThat(r.summary().ejectionsDetected()).isZero();
        assertThat(r.summary().failed()).isEqualTo(2 * 6930);
    }

    @Test
    void aFaultOnEveryHostIsNoOutlierAndAThirdFails() {
        Scenario s = scenario(6, 50, 600, 300 * S, List.of(fault(6, 30 * S, 240 * S, 330_000, 503)), CAP_34, null);
        RunResult r = Simulation.run(s);
        assertThat(r.summary().ejectionsDetected()).isZero();
        // 126000 requests during the fault, 33 of every 100 to each host fail
        assertThat(r.summary().failedDuringFault()).isEqualTo(41_580);
        assertThat(r.summary().failedPercentDuringFault()).isEqualTo(33.0);
    }
}
