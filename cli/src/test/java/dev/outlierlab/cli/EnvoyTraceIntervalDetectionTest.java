package dev.outlierlab.cli;

import static dev.outlierlab.cli.EnvoyTraces.C5XX;
import static dev.outlierlab.cli.EnvoyTraces.FP;
import static dev.outlierlab.cli.EnvoyTraces.FP_LOCAL;
import static dev.outlierlab.cli.EnvoyTraces.GATEWAY;
import static dev.outlierlab.cli.EnvoyTraces.LOCAL;
import static dev.outlierlab.cli.EnvoyTraces.S;
import static dev.outlierlab.cli.EnvoyTraces.SR;
import static dev.outlierlab.cli.EnvoyTraces.SR_LOCAL;
import static dev.outlierlab.cli.EnvoyTraces.assertEvents;
import static dev.outlierlab.cli.EnvoyTraces.assertStats;
import static dev.outlierlab.cli.EnvoyTraces.eject;
import static dev.outlierlab.cli.EnvoyTraces.only;
import static dev.outlierlab.cli.EnvoyTraces.repeat;
import static dev.outlierlab.cli.EnvoyTraces.run;
import static dev.outlierlab.cli.EnvoyTraces.stats;
import static dev.outlierlab.cli.EnvoyTraces.uneject;
import static dev.outlierlab.cli.EnvoyTraces.unenforced;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.cli.EnvoyTraces.Ev;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Envoy's tests of the detectors evaluated at each interval tick, restated as outcome traces: success rate and
 * failure percentage, on external and on local-origin results, enforced and (with Envoy's default
 * {@code enforcing_failure_percentage} 0) not. Besides every event and statistic, the figures of the decision are
 * checked: the host's success rate or failure percentage, the cluster's mean and threshold, the hosts evaluated.
 *
 * <p>How a trace is run and its result read: {@link EnvoyTraces}.
 */
class EnvoyTraceIntervalDetectionTest {
    @Test
    @DisplayName(
            "BasicFlowSuccessRateExternalOrigin: 100,100,100,100,50 % -> mean 90, threshold 52, h4 ejected at the tick")
    void successRate() {
        JsonNode r = run("success-rate");
        List<Ev> expected = new ArrayList<>();
        expected.addAll(repeat(40, unenforced(5 * S, "h4", GATEWAY), unenforced(5 * S, "h4", C5XX)));
        expected.add(eject(10 * S, "h4", SR, 30 * S, 1));
        expected.add(uneject(40 * S, "h4"));
        expected.addAll(repeat(5, unenforced(45 * S, "h4", GATEWAY), unenforced(45 * S, "h4", C5XX)));
        assertEvents(r, expected);
        JsonNode ejection = only(r, "eject");
        assertThat(ejection.get("host_success_rate").asDouble()).isEqualTo(50.0);
        assertThat(ejection.get("cluster_average_success_rate").asDouble()).isEqualTo(90.0);
        assertThat(ejection.get("cluster_success_rate_ejection_threshold").asDouble())
                .isEqualTo(52.0);
        assertThat(ejection.get("hosts_evaluated").asInt()).isEqualTo(5);
        assertThat(ejection.get("host_requests").asLong()).isEqualTo(400);
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 1,
                        "ejections_detected_success_rate", 1,
                        "ejections_enforced_success_rate", 1,
                        "ejections_detected_consecutive_5xx", 45,
                        "ejections_detected_consecutive_gateway_failure", 45,
                        "ejections_total", 46,
                        "ejections_consecutive_5xx", 45,
                        "ejections_success_rate", 1));
    }

    @Test
    @DisplayName(
            "BasicFlowSuccessRateLocalOrigin: the same figures on the local-origin success rate; external untouched")
    void successRateLocalOrigin() {
        JsonNode r = run("success-rate-local-origin");
        List<Ev> expected = new ArrayList<>();
        expected.addAll(repeat(40, unenforced(5 * S, "h4", LOCAL)));
        expected.add(eject(10 * S, "h4", SR_LOCAL, 30 * S, 1));
        expected.add(uneject(40 * S, "h4"));
        expected.addAll(repeat(5, unenforced(45 * S, "h4", LOCAL)));
        assertEvents(r, expected);
        JsonNode ejection = only(r, "eject");
        assertThat(ejection.get("host_success_rate").asDouble()).isEqualTo(50.0);
        assertThat(ejection.get("cluster_average_success_rate").asDouble()).isEqualTo(90.0);
        assertThat(ejection.get("cluster_success_rate_ejection_threshold").asDouble())
                .isEqualTo(52.0);
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 1,
                        "ejections_detected_local_origin_success_rate", 1,
                        "ejections_enforced_local_origin_success_rate", 1,
                        "ejections_detected_consecutive_local_origin_failure", 45,
                        "ejections_success_rate", 1));
    }

    @Test
    @DisplayName(
            "BasicFlowFailurePercentageExternalOrigin: 83.3 % failed stays, 85.7 % >= 85 is ejected (enforcing 100)")
    void failurePercentage() {
        JsonNode r = run("failure-percentage");
        List<Ev> expected = new ArrayList<>();
        expected.addAll(repeat(50, unenforced(5 * S, "h3", GATEWAY), unenforced(5 * S, "h3", C5XX)));
        expected.addAll(repeat(60, unenforced(5 * S, "h4", GATEWAY), unenforced(5 * S, "h4", C5XX)));
        expected.add(eject(10 * S, "h4", FP, 30 * S, 1));
        expected.add(uneject(40 * S, "h4"));
        expected.addAll(repeat(5, unenforced(45 * S, "h4", GATEWAY), unenforced(45 * S, "h4", C5XX)));
        assertEvents(r, expected);
        JsonNode ejection = only(r, "eject");
        assertThat(ejection.get("host_failure_percentage").asDouble()).isCloseTo(100.0 * 300 / 350, within(1e-9));
        assertThat(ejection.get("host_requests").asLong()).isEqualTo(350);
        assertThat(ejection.get("hosts_evaluated").asInt()).isEqualTo(5);
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 1,
                        "ejections_detected_failure_percentage", 1,
                        "ejections_enforced_failure_percentage", 1,
                        "ejections_detected_consecutive_5xx", 115,
                        "ejections_detected_consecutive_gateway_failure", 115,
                        "ejections_total", 115,
                        "ejections_consecutive_5xx", 115));
    }

    @Test
    @DisplayName("Failure percentage with Envoy's default enforcing_failure_percentage 0: detected, not enforced")
    void failurePercentageDefaultNotEnforced() {
        JsonNode r = run("failure-percentage", "scenario-default-enforcing.yaml");
        List<Ev> expected = new ArrayList<>();
        expected.addAll(repeat(50, unenforced(5 * S, "h3", GATEWAY), unenforced(5 * S, "h3", C5XX)));
        expected.addAll(repeat(60, unenforced(5 * S, "h4", GATEWAY), unenforced(5 * S, "h4", C5XX)));
        expected.add(unenforced(10 * S, "h4", FP));
        expected.addAll(repeat(5, unenforced(45 * S, "h4", GATEWAY), unenforced(45 * S, "h4", C5XX)));
        assertEvents(r, expected);
        assertStats(
                r,
                stats(
                        "ejections_detected_failure_percentage", 1,
                        "ejections_detected_consecutive_5xx", 115,
                        "ejections_detected_consecutive_gateway_failure", 115,
                        "ejections_total", 115,
                        "ejections_consecutive_5xx", 115));
    }

    @Test
    @DisplayName(
            "BasicFlowFailurePercentageLocalOrigin: local success rate detects (not enforced), local failure percentage ejects")
    void failurePercentageLocalOrigin() {
        JsonNode r = run("failure-percentage-local-origin");
        List<Ev> expected = new ArrayList<>();
        expected.addAll(repeat(40, unenforced(5 * S, "h4", LOCAL)));
        expected.add(unenforced(10 * S, "h4", SR_LOCAL));
        expected.add(eject(10 * S, "h4", FP_LOCAL, 30 * S, 1));
        expected.add(uneject(40 * S, "h4"));
        expected.addAll(repeat(5, unenforced(45 * S, "h4", LOCAL)));
        assertEvents(r, expected);
        JsonNode srDetection = r.get("events").get(40);
        assertThat(srDetection.get("host_success_rate").asDouble()).isEqualTo(50.0);
        assertThat(srDetection.get("cluster_average_success_rate").asDouble()).isEqualTo(90.0);
        assertThat(srDetection.get("cluster_success_rate_ejection_threshold").asDouble())
                .isEqualTo(52.0);
        assertThat(only(r, "eject").get("host_failure_percentage").asDouble()).isEqualTo(50.0);
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 1,
                        "ejections_detected_local_origin_success_rate", 1,
                        "ejections_detected_local_origin_failure_percentage", 1,
                        "ejections_enforced_local_origin_failure_percentage", 1,
                        "ejections_detected_consecutive_local_origin_failure", 45,
                        "ejections_success_rate", 1));
    }
}
