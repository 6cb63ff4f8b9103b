package dev.outlierlab.engine.envoy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Envoy's panic rule, from {@code LoadBalancerBase::recalculatePerPriorityPanic} and its tests in
 * {@code load_balancer_impl_test.cc} (the overprovisioning factor 140, integer availability, the threshold rounded).
 */
class PanicRuleTest {
    @Test
    void availabilityIs140PercentOfTheHealthyShareCappedAt100() {
        assertThat(PanicRule.availability(6, 0, 6)).isEqualTo(100);
        assertThat(PanicRule.availability(5, 0, 6)).isEqualTo(100); // 700 / 6 = 116
        assertThat(PanicRule.availability(4, 0, 6)).isEqualTo(93); // 560 / 6 = 93 (integer division)
        assertThat(PanicRule.availability(5, 0, 7)).isEqualTo(100); // 700 / 7 = 100 exactly
        assertThat(PanicRule.availability(1, 1, 4)).isEqualTo(70); // 35 + 35
        assertThat(PanicRule.availability(0, 0, 0)).isZero();
    }

    @Test
    void noPanicWhileAvailabilityIs100WhateverTheThreshold() {
        PanicRule at100 = PanicRule.of(100);
        assertThat(at100.inPanic(5, 6)).isFalse();
        assertThat(at100.inPanic(5, 7)).isFalse(); // 71.4 % healthy, availability exactly 100
        assertThat(at100.inPanic(4, 6)).isTrue();
        assertThat(at100.fewestHealthyWithoutPanic(6)).isEqualTo(5);
        assertThat(PanicRule.of(50).fewestHealthyWithoutPanic(6)).isEqualTo(3);
        // the default threshold 50 decides exactly as 100 * healthy / hosts < 50 always did: below 71.4 % healthy
        // availability is under 100, and at or above it 50 % is not reached anyway
        PanicRule at50 = PanicRule.of(50);
        for (int hosts = 1; hosts <= 200; hosts++) {
            for (int healthy = 0; healthy <= hosts; healthy++) {
                assertThat(at50.inPanic(healthy, hosts)).isEqualTo(100.0 * healthy / hosts < 50);
            }
        }
    }

    @Test
    void theThresholdIsRoundedToAWholePercentAndCappedAt100() {
        // PROTOBUF_PERCENT_TO_ROUNDED_INTEGER_OR_DEFAULT: 66.5 reads as 67, so 4 of 6 (66.67 %) is in panic
        assertThat(PanicRule.of(66.5).thresholdPercent()).isEqualTo(67);
        assertThat(PanicRule.of(66.5).inPanic(4, 6)).isTrue();
        assertThat(PanicRule.of(66.4).inPanic(4, 6)).isFalse();
        assertThat(PanicRule.of(0).inPanic(0, 6)).isFalse();
        assertThat(PanicRule.of(50).inPanic(0, 0)).isTrue();
    }

    @Test
    void degradedHostsCountTowardAvailabilityAndTheHealthyShare() {
        // isHostSetInPanic: healthy_percent + degraded_percent < threshold
        PanicRule at50 = PanicRule.of(50);
        assertThat(at50.inPanic(1, 1, 4)).isFalse(); // 25 + 25 = 50
        assertThat(at50.inPanic(1, 0, 4)).isTrue();
        assertThat(at50.inPanic(3, 2, 6)).isFalse(); // 70 + 46 -> 100
    }
}
