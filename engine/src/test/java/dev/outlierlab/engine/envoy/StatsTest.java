package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static dev.outlierlab.engine.envoy.Fixtures.config;
import static dev.outlierlab.engine.envoy.Fixtures.respond;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.Fixtures.Events;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Envoy's outlier_detection.* statistics, including the deprecated ones, counted where Envoy counts them. */
class StatsTest {

    @Test
    void envoysStatNamesInAFixedOrder() {
        assertThat(new OutlierStats().asMap().keySet())
                .containsExactly(
                        "ejections_active",
                        "ejections_overflow",
                        "ejections_enforced_total",
                        "ejections_detected_consecutive_5xx",
                        "ejections_enforced_consecutive_5xx",
                        "ejections_detected_consecutive_gateway_failure",
                        "ejections_enforced_consecutive_gateway_failure",
                        "ejections_detected_success_rate",
                        "ejections_enforced_success_rate",
                        "ejections_detected_consecutive_local_origin_failure",
                        "ejections_enforced_consecutive_local_origin_failure",
                        "ejections_detected_local_origin_success_rate",
                        "ejections_enforced_local_origin_success_rate",
                        "ejections_detected_failure_percentage",
                        "ejections_enforced_failure_percentage",
                        "ejections_detected_local_origin_failure_percentage",
                        "ejections_enforced_local_origin_failure_percentage",
                        "ejections_total",
                        "ejections_consecutive_5xx",
                        "ejections_success_rate");
    }

    @Test
    void deprecatedEjectionsTotalCountsOnlyOffersTheCapAdmitted() {
        // two hosts, cap 50: h0's detection is admitted (50 %) and ejects; h1's would make 100 %: overflow.
        // ejections_total counts the admitted one only; ejections_consecutive_5xx counts every detection.
        OutlierDetector d =
                new OutlierDetector(config(OutlierSetting.MAX_EJECTION_PERCENT, 50), new SeededRandom(1), new Events());
        HostMonitor h0 = d.addHost("h0");
        HostMonitor h1 = d.addHost("h1");
        respond(h0, 5, 500, S);
        respond(h1, 5, 500, S);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_active", 1L)
                .containsEntry("ejections_overflow", 1L)
                .containsEntry("ejections_enforced_total", 1L)
                .containsEntry("ejections_detected_consecutive_5xx", 2L)
                .containsEntry("ejections_enforced_consecutive_5xx", 1L)
                .containsEntry("ejections_total", 1L)
                .containsEntry("ejections_consecutive_5xx", 2L);
        assertThat(d.stats().detectedTotal()).isEqualTo(2);
    }

    @Test
    void deprecatedSuccessRateCounterCountsEveryDetectionAndTotalOnlyAdmittedOnes() {
        // six hosts at the default cap 10: the 50 % host is detected by success rate and refused by the cap
        OutlierDetector d = new OutlierDetector(OutlierDetectionConfig.defaults(), new SeededRandom(1), new Events());
        List<HostMonitor> h = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            h.add(d.addHost("h" + i));
        }
        for (int i = 0; i < 5; i++) {
            respond(h.get(i), 200, 200, S);
        }
        for (int i = 0; i < 100; i++) {
            h.get(5).putHttpResponseCode(500, S);
            h.get(5).putHttpResponseCode(200, S);
        }
        d.tick(10 * S);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_detected_success_rate", 1L)
                .containsEntry("ejections_success_rate", 1L)
                .containsEntry("ejections_overflow", 1L)
                .containsEntry("ejections_total", 0L)
                .containsEntry("ejections_active", 0L);
    }

    @Test
    void gatewayAndFailurePercentageEjectionsAreNotInTheDeprecatedTotal() {
        OutlierDetector d = new OutlierDetector(
                config(
                        OutlierSetting.MAX_EJECTION_PERCENT,
                        100,
                        OutlierSetting.CONSECUTIVE_5XX,
                        1000,
                        OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE,
                        100,
                        OutlierSetting.ENFORCING_FAILURE_PERCENTAGE,
                        100,
                        OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME,
                        1_000_000),
                new SeededRandom(1),
                new Events());
        List<HostMonitor> h = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            h.add(d.addHost("h" + i));
        }
        respond(h.get(0), 5, 503, S); // gateway failure ejection
        for (int i = 1; i < 5; i++) {
            respond(h.get(i), 100, 200, S);
        }
        respond(h.get(5), 100, 500, S); // 100 % failure, 500 is not a gateway error
        d.tick(10 * S);
        assertThat(d.stats().asMap())
                .containsEntry("ejections_enforced_consecutive_gateway_failure", 1L)
                .containsEntry("ejections_enforced_failure_percentage", 1L)
                .containsEntry("ejections_enforced_total", 2L)
                .containsEntry("ejections_active", 2L)
                .containsEntry("ejections_total", 0L);
    }
}
