package dev.outlierlab.engine.envoy.detect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The success-rate threshold and its comparisons, on the lab's and Envoy's worked examples. */
class SuccessRateDetectorTest {

    @Test
    void envoySourceExampleFiftyAndFourHundreds() {
        // sum 450 -> mean 90; squared deviations 40^2 + 4 * 10^2 = 2000, / 5 = 400 -> stdev 20;
        // threshold 90 - 1.9 * 20 = 52 (Envoy's comment in successRateEjectionThreshold, exact in doubles)
        SuccessRateDetector.Threshold t =
                SuccessRateDetector.threshold(List.of(50.0, 100.0, 100.0, 100.0, 100.0), 1900);
        assertThat(t.mean()).isEqualTo(90.0);
        assertThat(t.stdev()).isEqualTo(20.0);
        assertThat(t.threshold()).isEqualTo(52.0);
        assertThat(SuccessRateDetector.isOutlier(50.0, t)).isTrue();
        assertThat(SuccessRateDetector.isOutlier(100.0, t)).isFalse();
    }

    @Test
    void fourHostsAt99Point9AndOneAt80EjectsTheEightyHost() {
        // mean (4 * 99.9 + 80) / 5 = 479.6 / 5 = 95.92; deviations 3.98 (x4) and -15.92;
        // variance (4 * 15.8404 + 253.4464) / 5 = 316.808 / 5 = 63.3616 -> stdev 7.96;
        // threshold 95.92 - 1.9 * 7.96 = 95.92 - 15.124 = 80.796 ("about 80.8" in the seed)
        SuccessRateDetector.Threshold t = SuccessRateDetector.threshold(List.of(99.9, 99.9, 99.9, 99.9, 80.0), 1900);
        assertThat(t.mean()).isCloseTo(95.92, within(1e-9));
        assertThat(t.stdev()).isCloseTo(7.96, within(1e-9));
        assertThat(t.threshold()).isCloseTo(80.796, within(1e-9));
        assertThat(SuccessRateDetector.isOutlier(80.0, t)).isTrue();
        assertThat(SuccessRateDetector.isOutlier(99.9, t)).isFalse();
    }

    @Test
    void twoHostsAt80MoveTheMeanAndSpreadSoNeitherIsAnOutlier() {
        // mean (3 * 99.9 + 2 * 80) / 5 = 459.7 / 5 = 91.94; deviations 7.96 (x3) and -11.94 (x2);
        // variance (3 * 63.3616 + 2 * 142.5636) / 5 = 475.212 / 5 = 95.0424 -> stdev 9.74897 (9.75 in the seed);
        // threshold 91.94 - 1.9 * 9.74897 = 73.41696 (73.4 in the seed): 80 is above it
        SuccessRateDetector.Threshold t = SuccessRateDetector.threshold(List.of(99.9, 99.9, 99.9, 80.0, 80.0), 1900);
        assertThat(t.mean()).isCloseTo(91.94, within(1e-9));
        assertThat(t.stdev()).isCloseTo(9.74897, within(1e-5));
        assertThat(t.threshold()).isCloseTo(73.41696, within(1e-5));
        assertThat(SuccessRateDetector.isOutlier(80.0, t)).isFalse();
        assertThat(SuccessRateDetector.isOutlier(99.9, t)).isFalse();
    }

    @Test
    void aRateExactlyAtTheThresholdIsNotAnOutlier() {
        // same data as Envoy's example: threshold exactly 52.0; the test is strictly below
        SuccessRateDetector.Threshold t =
                SuccessRateDetector.threshold(List.of(50.0, 100.0, 100.0, 100.0, 100.0), 1900);
        assertThat(SuccessRateDetector.isOutlier(52.0, t)).isFalse();
        assertThat(SuccessRateDetector.isOutlier(51.999, t)).isTrue();
    }

    @Test
    void theStdevFactorIsInThousandths() {
        // factor 1000 -> threshold = mean - 1 * stdev = 90 - 20 = 70; factor 0 -> threshold = mean = 90;
        // factor 3000 -> 90 - 60 = 30, so even the 50 host is not an outlier
        List<Double> rates = List.of(50.0, 100.0, 100.0, 100.0, 100.0);
        assertThat(SuccessRateDetector.threshold(rates, 1000).threshold()).isEqualTo(70.0);
        assertThat(SuccessRateDetector.threshold(rates, 0).threshold()).isEqualTo(90.0);
        SuccessRateDetector.Threshold wide = SuccessRateDetector.threshold(rates, 3000);
        assertThat(wide.threshold()).isEqualTo(30.0);
        assertThat(SuccessRateDetector.isOutlier(50.0, wide)).isFalse();
    }

    @Test
    void equalRatesHaveNoSpreadAndNoOutlier() {
        // every host at 67 %: stdev 0, threshold = mean = 67, nobody strictly below
        SuccessRateDetector.Threshold t =
                SuccessRateDetector.threshold(List.of(67.0, 67.0, 67.0, 67.0, 67.0, 67.0), 1900);
        assertThat(t.stdev()).isZero();
        assertThat(t.threshold()).isEqualTo(67.0);
        assertThat(SuccessRateDetector.isOutlier(67.0, t)).isFalse();
    }

    @Test
    void volumeAndMinimumHosts() {
        // a host counts with at least request_volume requests; an empty bucket never counts
        assertThat(SuccessRateDetector.hasVolume(99, 100)).isFalse();
        assertThat(SuccessRateDetector.hasVolume(100, 100)).isTrue();
        assertThat(SuccessRateDetector.hasVolume(0, 0)).isFalse();
        assertThat(SuccessRateDetector.hasVolume(1, 0)).isTrue();
        // the detector runs with at least minimum_hosts qualifying hosts, and never with none
        assertThat(SuccessRateDetector.enoughHosts(4, 5)).isFalse();
        assertThat(SuccessRateDetector.enoughHosts(5, 5)).isTrue();
        assertThat(SuccessRateDetector.enoughHosts(0, 0)).isFalse();
    }
}
