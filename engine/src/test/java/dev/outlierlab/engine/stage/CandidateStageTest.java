package dev.outlierlab.engine.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.PanicRule;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request stage: what each mode does to a candidate list, the two guards, and due work first. */
class CandidateStageTest {
    @Test
    void whenTheDetectorSaysNothingIsEjectedNoCandidateIsAskedAbout() {
        EjectionFlags flags = new EjectionFlags(3);
        CandidateStage stage = new CandidateStage(StageMode.PROD, flags, null, RotationGuard.NEVER_EMPTY);
        int[] list = {2, 0, 1};
        assertThat(stage.apply(list, 3, 5)).isEqualTo(3);
        assertThat(list).containsExactly(2, 0, 1);
        assertThat(stage.action()).isEqualTo(StageAction.NONE);
        assertThat(flags.asked).isZero();
        flags.set(0, true);
        assertThat(stage.apply(list, 3, 6)).isEqualTo(2);
        assertThat(Arrays.copyOf(list, 2)).containsExactly(2, 1);
        assertThat(stage.action()).isEqualTo(StageAction.EJECT);
        assertThat(flags.asked).isEqualTo(3);
        flags.set(0, false);
        list = new int[] {0, 1, 2};
        assertThat(stage.apply(list, 3, 7)).isEqualTo(3);
        assertThat(stage.action()).isEqualTo(StageAction.NONE);
        assertThat(stage.concernedCount()).isZero();
        assertThat(flags.asked).isEqualTo(3);
    }

    @Test
    void prodRemovesEjectedEndpointsKeepingRoutingOrder() {
        EjectionFlags flags = new EjectionFlags(4);
        flags.set(1, true);
        flags.set(3, true);
        CandidateStage stage = new CandidateStage(StageMode.PROD, flags, flags, RotationGuard.NEVER_EMPTY);
        int[] list = {3, 0, 1, 2};
        int n = stage.apply(list, 4, 10);
        assertThat(Arrays.copyOf(list, n)).containsExactly(0, 2);
        assertThat(stage.action()).isEqualTo(StageAction.EJECT);
        assertThat(stage.record(10, 7, 1))
                .isEqualTo(new StageRecord(10, 7, 1, StageMode.PROD, StageAction.EJECT, List.of(3, 1)));
    }

    @Test
    void prodGuardKeepsTheWholeListWhenEveryCandidateIsEjected() {
        EjectionFlags flags = new EjectionFlags(2);
        flags.set(0, true);
        flags.set(1, true);
        CandidateStage stage = new CandidateStage(StageMode.PROD, flags, flags, RotationGuard.NEVER_EMPTY);
        int[] list = {1, 0};
        assertThat(stage.apply(list, 2, 0)).isEqualTo(2);
        assertThat(list).containsExactly(1, 0);
        assertThat(stage.action()).isEqualTo(StageAction.KEPT_ALL);
        assertThat(stage.record(0, 0, 0).endpoints()).containsExactly(1, 0);
    }

    @Test
    void shadowRemovesNothingAndNamesWhatProdWouldHaveRemoved() {
        EjectionFlags flags = new EjectionFlags(3);
        flags.set(2, true);
        CandidateStage stage = new CandidateStage(StageMode.SHADOW, flags, flags, RotationGuard.NEVER_EMPTY);
        int[] list = {2, 0, 1};
        assertThat(stage.apply(list, 3, 5)).isEqualTo(3);
        assertThat(list).containsExactly(2, 0, 1);
        assertThat(stage.action()).isEqualTo(StageAction.WOULD_EJECT);
        assertThat(stage.record(5, 1, 0).endpoints()).containsExactly(2);
    }

    @Test
    void shadowRecordsNothingWhenProdsGuardWouldHaveKeptEverything() {
        EjectionFlags flags = new EjectionFlags(1);
        flags.set(0, true);
        CandidateStage stage = new CandidateStage(StageMode.SHADOW, flags, flags, RotationGuard.NEVER_EMPTY);
        assertThat(stage.apply(new int[] {0}, 1, 5)).isEqualTo(1);
        assertThat(stage.action()).isEqualTo(StageAction.NONE);
        assertThat(stage.record(5, 1, 0)).isNull();
    }

    @Test
    void offNeitherConsultsTheDetectorNorRunsItsWork() {
        EjectionFlags flags = new EjectionFlags(2);
        flags.set(0, true);
        flags.returnAt = 0;
        CandidateStage stage = new CandidateStage(StageMode.OFF, flags, flags, RotationGuard.NEVER_EMPTY);
        int[] list = {0, 1};
        assertThat(stage.apply(list, 2, 100)).isEqualTo(2);
        assertThat(stage.action()).isEqualTo(StageAction.NONE);
        assertThat(flags.runs).isZero();
    }

    @Test
    void dueWorkRunsBeforeFilteringSoAReturnAtThisInstantIsInTheList() {
        EjectionFlags flags = new EjectionFlags(2);
        flags.set(0, true);
        flags.returnAt = 30;
        CandidateStage stage = new CandidateStage(StageMode.PROD, flags, flags, RotationGuard.NEVER_EMPTY);
        int[] list = {0, 1};
        assertThat(stage.apply(list, 2, 29)).isEqualTo(1);
        assertThat(flags.runs).isZero();
        list = new int[] {0, 1};
        assertThat(stage.apply(list, 2, 30)).isEqualTo(2);
        assertThat(flags.runs).isEqualTo(1);
        assertThat(stage.action()).isEqualTo(StageAction.NONE);
    }

    @Test
    void envoysPanicGuardKeepsAllBelowTheThresholdAndAtZeroMayEmptyTheList() {
        EjectionFlags flags = new EjectionFlags(6);
        flags.set(0, true);
        flags.set(1, true);
        flags.set(2, true);
        // 3 of 6 healthy = 50 %: not below 50, so not in panic
        CandidateStage at50 =
                new CandidateStage(StageMode.PROD, flags, null, PanicRule.of(50).guard());
        assertThat(at50.apply(new int[] {0, 1, 2, 3, 4, 5}, 6, 0)).isEqualTo(3);
        flags.set(3, true);
        // 2 of 6 = 33.3 % < 50: panic, every host eligible
        assertThat(at50.apply(new int[] {0, 1, 2, 3, 4, 5}, 6, 0)).isEqualTo(6);
        assertThat(at50.action()).isEqualTo(StageAction.KEPT_ALL);
        for (int e = 0; e < 6; e++) {
            flags.set(e, true);
        }
        CandidateStage at0 =
                new CandidateStage(StageMode.PROD, flags, null, PanicRule.of(0).guard());
        assertThat(at0.apply(new int[] {0, 1, 2, 3, 4, 5}, 6, 0)).isZero();
        assertThat(at0.action()).isEqualTo(StageAction.EJECT);
    }
}
