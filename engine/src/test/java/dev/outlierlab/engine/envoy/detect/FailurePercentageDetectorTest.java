package dev.outlierlab.engine.envoy.detect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The fixed failure-percentage threshold: at or above it is an outlier. */
class FailurePercentageDetectorTest {

    @Test
    void failurePercentIsOneHundredMinusTheSuccessRate() {
        assertThat(FailurePercentageDetector.failurePercent(15.0)).isEqualTo(85.0);
        assertThat(FailurePercentageDetector.failurePercent(100.0)).isEqualTo(0.0);
    }

    @Test
    void atTheThresholdIsAnOutlier() {
        // 15 % success -> 85 % failure, equal to the default threshold 85: >= so an outlier
        assertThat(FailurePercentageDetector.isOutlier(15.0, 85)).isTrue();
        // 16 % success -> 84 % failure: not
        assertThat(FailurePercentageDetector.isOutlier(16.0, 85)).isFalse();
        // Envoy's test: 50 of 350 succeed -> 85.71 % failure >= 85; 50 of 300 -> 83.33 % < 85
        assertThat(FailurePercentageDetector.isOutlier(50 * 100.0 / 350, 85)).isTrue();
        assertThat(FailurePercentageDetector.isOutlier(50 * 100.0 / 300, 85)).isFalse();
    }

    @Test
    void thresholdZeroMakesEveryJudgedHostAnOutlierAndHundredOnlyTotalFailure() {
        // 0 % failure >= 0
        assertThat(FailurePercentageDetector.isOutlier(100.0, 0)).isTrue();
        assertThat(FailurePercentageDetector.isOutlier(0.0, 100)).isTrue();
        assertThat(FailurePercentageDetector.isOutlier(1.0, 100)).isFalse();
    }

    @Test
    void volumeAndMinimumHosts() {
        assertThat(FailurePercentageDetector.hasVolume(49, 50)).isFalse();
        assertThat(FailurePercentageDetector.hasVolume(50, 50)).isTrue();
        assertThat(FailurePercentageDetector.enoughHosts(4, 5)).isFalse();
        assertThat(FailurePercentageDetector.enoughHosts(5, 5)).isTrue();
    }
}
