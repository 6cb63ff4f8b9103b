package dev.outlierlab.sim.hinges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an answer hinges on: each caller's interval volume, and the run under the other fault pattern. */
class HingesTest {
    private static final OutlierDetectionConfig DEFAULTS = OutlierDetectionConfig.defaults();

    @Test
    void perCallerVolumeDecidesWhetherSuccessRateCanRun() {
        IntervalVolume one = IntervalVolume.of(DEFAULTS, 6, 600, 1).get(0);
        assertThat(one.type()).isEqualTo(EjectionType.SUCCESS_RATE);
        assertThat(one.perCaller()).isEqualTo(6000.0);
        assertThat(one.perHost()).isEqualTo(1000.0);
        assertThat(one.verdict()).isEqualTo(IntervalVolume.Verdict.RUNS);

        // 600 rps over 50 callers: 120 a caller per 10 s, 20 per host; 5 hosts x 100 need 500
        List<IntervalVolume> fifty = IntervalVolume.of(DEFAULTS, 6, 600, 50);
        assertThat(fifty.get(0).perHost()).isEqualTo(20.0);
        assertThat(fifty.get(0).verdict()).isEqualTo(IntervalVolume.Verdict.NEVER_TOO_LITTLE_TRAFFIC);
        assertThat(fifty.get(1).type()).isEqualTo(EjectionType.FAILURE_PERCENTAGE);
        assertThat(fifty.get(1).verdict().never()).isTrue();

        // 600 rps over 6 callers: 1,000 a caller, 166.7 per host: runs; over 10 callers 100 per host exactly
        assertThat(IntervalVolume.of(DEFAULTS, 6, 600, 6).get(0).verdict()).isEqualTo(IntervalVolume.Verdict.RUNS);
        assertThat(IntervalVolume.of(DEFAULTS, 6, 600, 10).get(0).verdict()).isEqualTo(IntervalVolume.Verdict.RUNS);
        // 600 rps over 11 callers: 545 a caller, 90.9 per host: enough for 5 hosts only once one is out
        assertThat(IntervalVolume.of(DEFAULTS, 6, 600, 11).get(0).verdict())
                .isEqualTo(IntervalVolume.Verdict.ONLY_WITH_FEWER_HOSTS);
        assertThat(IntervalVolume.of(DEFAULTS, 4, 600, 1).get(0).verdict())
                .isEqualTo(IntervalVolume.Verdict.NEVER_TOO_FEW_HOSTS);
    }

    @Test
    void theOtherPatternIsRunAndComparedOnlyForPartialEvenOrRandomFaults() {
        Scenario even = Scenario.defaults();
        Scenario random = PatternContrast.swapped(even);
        assertThat(random.faults().get(0).pattern()).isEqualTo(FaultPattern.RANDOM);
        assertThat(PatternContrast.swapped(random).faults()).isEqualTo(even.faults());

        Scenario cap34 = even.withOutlierDetection(DEFAULTS.toBuilder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                .set(OutlierSetting.ENFORCING_SUCCESS_RATE, 0)
                .build());
        PatternContrast c = PatternContrast.of(Simulation.run(cap34), RunWatcher.NONE);
        assertThat(c.sets()).containsExactly("faults[0].pattern=random");
        assertThat(c.otherPattern()).isEqualTo(FaultPattern.RANDOM);
        assertThat(c.differ()).isTrue();
        assertThat(c.other().summary().ejectionsEnforced()).isEqualTo(3);
        assertThat(PatternContrast.firstEjectionNanos(c.other())).isEqualTo(30_610_000_000L);

        // a fault that fails everything (or nothing) gives the same failures under either pattern: nothing to swap
        Scenario dead = Scenario.builder()
                .name("dead")
                .durationNanos(even.durationNanos())
                .seed(1)
                .cluster(even.cluster())
                .traffic(even.traffic())
                .faults(List.of(FaultSpec.builder()
                        .hosts(List.of("host-0"))
                        .window(0, even.durationNanos())
                        .errorRatePpm(1_000_000)
                        .build()))
                .outlierDetection(DEFAULTS)
                .build();
        assertThat(PatternContrast.swapped(dead)).isNull();
        assertThat(PatternContrast.planned(dead)).isNull();
    }
}
