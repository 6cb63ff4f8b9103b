package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.engine.envoy.EjectionPolicy;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.SeededRandom;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Envoy's own outlier-detection unit tests ({@code test/common/upstream/outlier_detection_impl_test.cc},
 * checked against {@code source/common/upstream/outlier_detection_impl.cc} of v1.40.2) restated as outcome
 * traces in {@code src/test/resources/envoy-traces/<name>/}: each directory holds {@code trace.jsonl}, whose
 * header names the Envoy test, and {@code scenario.yaml} (sometimes a variant next to it). Every trace is run
 * the way a user runs it, {@code run SCENARIO --trace-in TRACE --format json}, and the figures Envoy's test
 * asserts are checked here as literals: every event (time in ns, host, action, type, and for ejections the
 * ejection time and multiplier), in order, and every statistic (any stat not listed must be 0).
 *
 * <p>Where Envoy's test uses its mocked clock, the interval callbacks it fires become the lab's ticks at
 * {@code k * interval}; where it mocks the runtime, the same values are given as config fields. Envoy's tests
 * predate v1.40.2's cap ({@code 100 * (active + 1) / hosts <= max_ejection_percent}, no free first ejection), so
 * where they expect an ejection the scenario sets the smallest {@code max_ejection_percent} that admits it.
 */
class EnvoyTraceTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String C5XX = "CONSECUTIVE_5XX";
    private static final String GATEWAY = "CONSECUTIVE_GATEWAY_FAILURE";
    private static final String LOCAL = "CONSECUTIVE_LOCAL_ORIGIN_FAILURE";
    private static final String SR = "SUCCESS_RATE";
    private static final String SR_LOCAL = "SUCCESS_RATE_LOCAL_ORIGIN";
    private static final String FP = "FAILURE_PERCENTAGE";
    private static final String FP_LOCAL = "FAILURE_PERCENTAGE_LOCAL_ORIGIN";

    /** The traces this class runs; {@link #everyTraceIsRunAndNamesItsEnvoyTest()} checks none is left out. */
    private static final Set<String> TRACES = Set.of(
            "basic-flow-5xx", "gateway-failure", "gateway-failure-and-5xx", "nonsplit-connect-failed",
            "nonsplit-timeout-with-code", "nonsplit-external-origin", "split-local-origin",
            "split-large-number-of-timeouts", "split-external-origin-events", "already-ejected", "success-rate",
            "success-rate-local-origin", "failure-percentage", "failure-percentage-local-origin", "overflow",
            "not-enforcing", "always-eject-one-host", "eject-time-backoff", "max-eject-time",
            "max-eject-time-not-aligned", "ejection-jitter", "active-hc-uneject");

    // ------------------------------------------------------------------------------------------------------------
    // Consecutive 5xx and gateway failure

    @Test
    @DisplayName("BasicFlow5xxViaHttpCodes: ejected by the 5th consecutive 5xx, back at the tick 30 s later, ejected again for 2 x base")
    void basicFlow5xx() {
        JsonNode r = run("basic-flow-5xx");
        assertEvents(r,
                eject(0, "h0", C5XX, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(39_999 * MS, "h0", C5XX, 60 * S, 2));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_5xx", 2,
                "ejections_enforced_consecutive_5xx", 2,
                "ejections_total", 2,
                "ejections_consecutive_5xx", 2));
    }

    @Test
    @DisplayName("BasicFlowGatewayFailure: a 500 breaks the gateway run, not the 5xx run; gateway failure enforced, 5xx not")
    void gatewayFailure() {
        JsonNode r = run("gateway-failure");
        assertEvents(r,
                unenforced(0, "h0", C5XX),
                eject(0, "h0", GATEWAY, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(39_999 * MS, "h0", GATEWAY, 60 * S, 2));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_gateway_failure", 2,
                "ejections_enforced_consecutive_gateway_failure", 2,
                "ejections_detected_consecutive_5xx", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 1));
    }

    @Test
    @DisplayName("BasicFlowGatewayFailureAnd5xx: gateway failure first, then 503 503 500 500 500 ejects by 5xx only")
    void gatewayFailureAnd5xx() {
        JsonNode r = run("gateway-failure-and-5xx");
        assertEvents(r,
                eject(0, "h0", GATEWAY, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(39_999 * MS, "h0", C5XX, 60 * S, 2));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_5xx", 1,
                "ejections_enforced_consecutive_5xx", 1,
                "ejections_detected_consecutive_gateway_failure", 1,
                "ejections_enforced_consecutive_gateway_failure", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 1));
    }

    @Test
    @DisplayName("NotEnforcing: both detectors fire on five 503s, neither ejects")
    void notEnforcing() {
        JsonNode r = run("not-enforcing");
        assertEvents(r,
                unenforced(0, "h0", GATEWAY),
                unenforced(0, "h0", C5XX));
        assertStats(r, stats(
                "ejections_detected_consecutive_5xx", 1,
                "ejections_detected_consecutive_gateway_failure", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 1));
    }

    @Test
    @DisplayName("Consecutive_5xxAlreadyEjected: an ejected host is not detected again")
    void alreadyEjected() {
        JsonNode r = run("already-ejected");
        assertEvents(r, eject(0, "h0", C5XX, 30 * S, 1));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 1,
                "ejections_detected_consecutive_5xx", 1,
                "ejections_enforced_consecutive_5xx", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 1));
    }

    @Test
    @DisplayName("BasicFlow5xxViaHttpCodesWithActiveHC: a passing active health check returns the ejected host at once")
    void activeHealthCheckUneject() {
        JsonNode r = run("active-hc-uneject");
        assertEvents(r,
                eject(0, "h0", C5XX, 30 * S, 1),
                uneject(10 * S, "h0"),
                eject(10 * S, "h0", C5XX, 60 * S, 2),
                uneject(20 * S, "h0"),
                eject(25 * S, "h0", C5XX, 90 * S, 3));
        for (JsonNode e : r.get("events")) {
            if (e.get("action").asText().equals("uneject")) {
                assertThat(e.get("reason").asText()).isEqualTo("active_health_check");
            }
        }
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 3,
                "ejections_detected_consecutive_5xx", 3,
                "ejections_enforced_consecutive_5xx", 3,
                "ejections_total", 3,
                "ejections_consecutive_5xx", 3));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Local-origin results without split: mapped to HTTP codes

    @Test
    @DisplayName("BasicFlow5xxViaNonHttpCodes: connect_failed counts as 503 (gateway detected, 5xx ejects)")
    void nonSplitConnectFailed() {
        JsonNode r = run("nonsplit-connect-failed");
        assertEvents(r,
                unenforced(0, "h0", GATEWAY),
                eject(0, "h0", C5XX, 30 * S, 1),
                uneject(30 * S, "h0"),
                unenforced(39_999 * MS, "h0", GATEWAY),
                eject(39_999 * MS, "h0", C5XX, 60 * S, 2));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_5xx", 2,
                "ejections_enforced_consecutive_5xx", 2,
                "ejections_detected_consecutive_gateway_failure", 2,
                "ejections_total", 2,
                "ejections_consecutive_5xx", 2));
    }

    @Test
    @DisplayName("TimeoutWithHttpCode: timeout+500 is a 500, timeout+200 a success, a bare timeout a 504")
    void nonSplitTimeoutWithCode() {
        JsonNode r = run("nonsplit-timeout-with-code");
        assertEvents(r,
                eject(0, "h0", C5XX, 30 * S, 1),
                uneject(30 * S, "h0"),
                unenforced(30 * S, "h0", GATEWAY),
                eject(30 * S, "h0", C5XX, 60 * S, 2));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_5xx", 2,
                "ejections_enforced_consecutive_5xx", 2,
                "ejections_detected_consecutive_gateway_failure", 1,
                "ejections_total", 2,
                "ejections_consecutive_5xx", 2));
    }

    @Test
    @DisplayName("BasicFlowNonHttpCodesExternalOrigin: successes cancel failures; connect_success is ignored")
    void nonSplitExternalOrigin() {
        JsonNode r = run("nonsplit-external-origin");
        assertEvents(r,
                unenforced(5 * S, "h0", GATEWAY),
                eject(5 * S, "h0", C5XX, 30 * S, 1));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 1,
                "ejections_detected_consecutive_5xx", 1,
                "ejections_enforced_consecutive_5xx", 1,
                "ejections_detected_consecutive_gateway_failure", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 1));
    }

    // ------------------------------------------------------------------------------------------------------------
    // split_external_local_origin_errors

    @Test
    @DisplayName("BasicFlowLocalOriginFailure: consecutive local-origin failures eject; the 5xx counters are untouched")
    void splitLocalOrigin() {
        JsonNode r = run("split-local-origin");
        assertEvents(r,
                eject(0, "h0", LOCAL, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(30 * S, "h0", LOCAL, 60 * S, 2),
                uneject(90 * S, "h0"));
        assertStats(r, stats(
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_local_origin_failure", 2,
                "ejections_enforced_consecutive_local_origin_failure", 2));
    }

    @Test
    @DisplayName("LargeNumberOfTimeouts: timeouts while ejected neither delay the return nor trigger again")
    void splitLargeNumberOfTimeouts() {
        JsonNode r = run("split-large-number-of-timeouts");
        assertEvents(r,
                eject(0, "h0", LOCAL, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(30 * S, "h0", LOCAL, 60 * S, 2));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_local_origin_failure", 2,
                "ejections_enforced_consecutive_local_origin_failure", 2));
    }

    @Test
    @DisplayName("ExternalOriginEventsWithSplit: ext_failed and ext_success cancel; 100 ext_failed eject once by 5xx")
    void splitExternalOriginEvents() {
        JsonNode r = run("split-external-origin-events");
        assertEvents(r,
                unenforced(2 * S, "h0", GATEWAY),
                eject(2 * S, "h0", C5XX, 30 * S, 1));
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_enforced_total", 1,
                "ejections_detected_consecutive_5xx", 1,
                "ejections_enforced_consecutive_5xx", 1,
                "ejections_detected_consecutive_gateway_failure", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 1));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Success rate and failure percentage

    @Test
    @DisplayName("BasicFlowSuccessRateExternalOrigin: 100,100,100,100,50 % -> mean 90, threshold 52, h4 ejected at the tick")
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
        assertThat(ejection.get("cluster_success_rate_ejection_threshold").asDouble()).isEqualTo(52.0);
        assertThat(ejection.get("hosts_evaluated").asInt()).isEqualTo(5);
        assertThat(ejection.get("host_requests").asLong()).isEqualTo(400);
        assertStats(r, stats(
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
    @DisplayName("BasicFlowSuccessRateLocalOrigin: the same figures on the local-origin success rate; external untouched")
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
        assertThat(ejection.get("cluster_success_rate_ejection_threshold").asDouble()).isEqualTo(52.0);
        assertStats(r, stats(
                "ejections_enforced_total", 1,
                "ejections_detected_local_origin_success_rate", 1,
                "ejections_enforced_local_origin_success_rate", 1,
                "ejections_detected_consecutive_local_origin_failure", 45,
                "ejections_success_rate", 1));
    }

    @Test
    @DisplayName("BasicFlowFailurePercentageExternalOrigin: 83.3 % failed stays, 85.7 % >= 85 is ejected (enforcing 100)")
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
        assertStats(r, stats(
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
        assertStats(r, stats(
                "ejections_detected_failure_percentage", 1,
                "ejections_detected_consecutive_5xx", 115,
                "ejections_detected_consecutive_gateway_failure", 115,
                "ejections_total", 115,
                "ejections_consecutive_5xx", 115));
    }

    @Test
    @DisplayName("BasicFlowFailurePercentageLocalOrigin: local success rate detects (not enforced), local failure percentage ejects")
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
        assertThat(srDetection.get("cluster_success_rate_ejection_threshold").asDouble()).isEqualTo(52.0);
        assertThat(only(r, "eject").get("host_failure_percentage").asDouble()).isEqualTo(50.0);
        assertStats(r, stats(
                "ejections_enforced_total", 1,
                "ejections_detected_local_origin_success_rate", 1,
                "ejections_detected_local_origin_failure_percentage", 1,
                "ejections_enforced_local_origin_failure_percentage", 1,
                "ejections_detected_consecutive_local_origin_failure", 45,
                "ejections_success_rate", 1));
    }

    // ------------------------------------------------------------------------------------------------------------
    // The cap

    @Test
    @DisplayName("Overflow: the second host's ejection would pass max_ejection_percent -> ejections_overflow")
    void overflow() {
        JsonNode r = run("overflow");
        assertEvents(r,
                eject(0, "h0", C5XX, 30 * S, 1),
                overflow(0, "h1", C5XX));
        JsonNode refused = only(r, "overflow").get("cap");
        assertThat(refused.get("ejected_before").asInt()).isEqualTo(1);
        assertThat(refused.get("percent_if_ejected").asDouble()).isEqualTo(100.0);
        assertThat(refused.get("allowed").asBoolean()).isFalse();
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_overflow", 1,
                "ejections_enforced_total", 1,
                "ejections_detected_consecutive_5xx", 2,
                "ejections_enforced_consecutive_5xx", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 2));
    }

    @Test
    @DisplayName("always_eject_one_host: the first ejection passes a 10 % cap on two hosts, the second does not")
    void alwaysEjectOneHost() {
        JsonNode r = run("always-eject-one-host");
        assertEvents(r,
                eject(0, "h0", C5XX, 30 * S, 1),
                overflow(0, "h1", C5XX),
                uneject(30 * S, "h0"),
                eject(30 * S, "h1", C5XX, 30 * S, 1));
        JsonNode first = r.get("events").get(0).get("cap");
        assertThat(first.get("percent_if_ejected").asDouble()).isEqualTo(50.0);
        assertThat(first.get("max_ejection_percent").asInt()).isEqualTo(10);
        assertThat(first.get("allowed").asBoolean()).isTrue();
        assertStats(r, stats(
                "ejections_active", 1,
                "ejections_overflow", 1,
                "ejections_enforced_total", 2,
                "ejections_detected_consecutive_5xx", 3,
                "ejections_enforced_consecutive_5xx", 2,
                "ejections_total", 2,
                "ejections_consecutive_5xx", 3));
    }

    @Test
    @DisplayName("always_eject_one_host off: the 10 % cap refuses every ejection on two hosts")
    void alwaysEjectOneHostOff() {
        JsonNode r = run("always-eject-one-host", "scenario-off.yaml");
        assertEvents(r,
                overflow(0, "h0", C5XX),
                overflow(0, "h1", C5XX),
                overflow(30 * S, "h1", C5XX));
        assertStats(r, stats(
                "ejections_overflow", 3,
                "ejections_detected_consecutive_5xx", 3,
                "ejections_consecutive_5xx", 3));
    }

    // ------------------------------------------------------------------------------------------------------------
    // Ejection time: backoff, maximum, jitter

    @Test
    @DisplayName("EjectTimeBackoff: out for 10, 20, 30 s; two healthy intervals -> 20 s; fifty -> 10 s again")
    void ejectTimeBackoff() {
        JsonNode r = run("eject-time-backoff");
        assertEvents(r,
                eject(0, "h0", C5XX, 10 * S, 1),
                uneject(10 * S, "h0"),
                eject(10 * S, "h0", C5XX, 20 * S, 2),
                uneject(30 * S, "h0"),
                eject(30 * S, "h0", C5XX, 30 * S, 3),
                uneject(60 * S, "h0"),
                eject(80 * S, "h0", C5XX, 20 * S, 2),
                uneject(100 * S, "h0"),
                eject(610 * S, "h0", C5XX, 10 * S, 1),
                uneject(620 * S, "h0"));
        assertStats(r, stats(
                "ejections_enforced_total", 5,
                "ejections_detected_consecutive_5xx", 5,
                "ejections_enforced_consecutive_5xx", 5,
                "ejections_total", 5,
                "ejections_consecutive_5xx", 5));
    }

    @Test
    @DisplayName("MaxEjectTime: the i-th ejection lasts i x 10 s up to max_ejection_time 300 s, and stays there")
    void maxEjectTime() {
        JsonNode r = run("max-eject-time");
        // Envoy's loops: eject, stay ejected through i - 1 ticks, return at the i-th; then 9 x (29 ticks, return).
        List<Ev> expected = new ArrayList<>();
        long tick = 0;
        for (int i = 1; i <= 30; i++) {
            expected.add(eject(tick * 10 * S, "h0", C5XX, i * 10 * S, i));
            tick += i;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        for (int i = 1; i < 10; i++) {
            expected.add(eject(tick * 10 * S, "h0", C5XX, 300 * S, 31));
            tick += 30;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        assertThat(tick * 10 * S).isEqualTo(7350 * S);
        assertEvents(r, expected);
        assertStats(r, stats(
                "ejections_enforced_total", 39,
                "ejections_detected_consecutive_5xx", 39,
                "ejections_enforced_consecutive_5xx", 39,
                "ejections_total", 39,
                "ejections_consecutive_5xx", 39));
    }

    @Test
    @DisplayName("MaxEjectTimeNotAlligned: max 305 s is reached at the 31st ejection; each later one lasts until the tick 310 s on")
    void maxEjectTimeNotAligned() {
        JsonNode r = run("max-eject-time-not-aligned");
        List<Ev> expected = new ArrayList<>();
        long tick = 0;
        for (int i = 1; i <= 31; i++) {
            expected.add(eject(tick * 10 * S, "h0", C5XX, Math.min(i * 10 * S, 305 * S), i));
            tick += i;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        for (int i = 1; i < 10; i++) {
            // The multiplier stops at 32: 32 x 10 s is not below max + base (315 s).
            expected.add(eject(tick * 10 * S, "h0", C5XX, 305 * S, 32));
            tick += 31;
            expected.add(uneject(tick * 10 * S, "h0"));
        }
        assertThat(tick * 10 * S).isEqualTo(7750 * S);
        assertEvents(r, expected);
        assertStats(r, stats(
                "ejections_enforced_total", 40,
                "ejections_detected_consecutive_5xx", 40,
                "ejections_enforced_consecutive_5xx", 40,
                "ejections_total", 40,
                "ejections_consecutive_5xx", 40));
    }

    @Test
    @DisplayName("EjectionTimeJitterIsInRange: the jitter is the draw mod 10001 ms, and the host stays out base + jitter")
    void ejectionJitter() {
        // Envoy's assertion, on Envoy's mocked draw: 123456789 % (10000 + 1) = 4445 ms.
        OutlierDetectionConfig config = OutlierDetectionConfig.builder()
                .set(OutlierSetting.MAX_EJECTION_TIME_JITTER, 10 * S).build();
        assertThat(new EjectionPolicy(config, () -> 123456789L).ejectionTime(0).jitterNanos()).isEqualTo(4445 * MS);

        // The trace: enforcing_consecutive_5xx is 100, so there is no enforcing draw and the jitter takes the
        // first draw of the seed (7).
        long jitter = Long.remainderUnsigned(new SeededRandom(7).next(), 10_001) * MS;
        assertThat(jitter).isBetween(1L, 10 * S);
        JsonNode r = run("ejection-jitter");
        assertEvents(r,
                eject(0, "h0", C5XX, 30 * S + jitter, 1),
                uneject(40 * S, "h0"));
        assertThat(only(r, "eject").get("jitter_ns").asLong()).isEqualTo(jitter);
        assertStats(r, stats(
                "ejections_enforced_total", 1,
                "ejections_detected_consecutive_5xx", 1,
                "ejections_enforced_consecutive_5xx", 1,
                "ejections_total", 1,
                "ejections_consecutive_5xx", 1));
    }

    @Test
    @DisplayName("EjectionTimeJitterIsZeroWhenNotConfigured: jitter 0, back at the tick 30 s on")
    void ejectionJitterNotConfigured() {
        JsonNode r = run("ejection-jitter", "scenario-no-jitter.yaml");
        assertEvents(r,
                eject(0, "h0", C5XX, 30 * S, 1),
                uneject(30 * S, "h0"));
        assertThat(only(r, "eject").get("jitter_ns").asLong()).isZero();
    }

    // ------------------------------------------------------------------------------------------------------------

    @Test
    @DisplayName("every trace directory is run here, and every trace names the Envoy test it restates")
    void everyTraceIsRunAndNamesItsEnvoyTest() throws IOException {
        Set<String> found = new TreeSet<>();
        try (Stream<Path> dirs = Files.list(root())) {
            dirs.filter(Files::isDirectory).forEach(d -> found.add(d.getFileName().toString()));
        }
        assertThat(found).containsExactlyInAnyOrderElementsOf(TRACES);
        for (String name : found) {
            Path dir = root().resolve(name);
            assertThat(dir.resolve("scenario.yaml")).exists();
            String firstLine = Files.readAllLines(dir.resolve("trace.jsonl")).get(0);
            assertThat(firstLine).as(name + "/trace.jsonl").startsWith("# Restates ");
        }
    }

    // ------------------------------------------------------------------------------------------------------------
    // Running a trace and reading the result

    /** One event as asserted: ejection time and multiplier only for ejections (null otherwise). */
    record Ev(long timeNs, String host, String action, String type, Long ejectionTimeNs, Long multiplier) {
        @Override
        public String toString() {
            return timeNs + "ns " + host + " " + action + (type == null ? "" : " " + type)
                    + (ejectionTimeNs == null ? "" : " for " + ejectionTimeNs + "ns x" + multiplier);
        }
    }

    private static Ev eject(long timeNs, String host, String type, long ejectionTimeNs, long multiplier) {
        return new Ev(timeNs, host, "eject", type, ejectionTimeNs, multiplier);
    }

    private static Ev uneject(long timeNs, String host) {
        return new Ev(timeNs, host, "uneject", null, null, null);
    }

    private static Ev unenforced(long timeNs, String host, String type) {
        return new Ev(timeNs, host, "unenforced", type, null, null);
    }

    private static Ev overflow(long timeNs, String host, String type) {
        return new Ev(timeNs, host, "overflow", type, null, null);
    }

    private static List<Ev> repeat(int times, Ev... group) {
        List<Ev> out = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            Collections.addAll(out, group);
        }
        return out;
    }

    private static void assertEvents(JsonNode result, Ev... expected) {
        assertEvents(result, List.of(expected));
    }

    private static void assertEvents(JsonNode result, List<Ev> expected) {
        List<Ev> actual = new ArrayList<>();
        for (JsonNode e : result.get("events")) {
            boolean ejection = e.get("action").asText().equals("eject");
            actual.add(new Ev(e.get("time_ns").asLong(), e.get("host").asText(), e.get("action").asText(),
                    e.get("type").isNull() ? null : e.get("type").asText(),
                    ejection ? e.get("ejection_time_ns").asLong() : null,
                    ejection ? e.get("multiplier").asLong() : null));
        }
        assertThat(actual).containsExactlyElementsOf(expected);
    }

    /** Name/value pairs of the statistics expected to be non-zero. */
    private static Map<String, Long> stats(Object... pairs) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], ((Number) pairs[i + 1]).longValue());
        }
        return m;
    }

    /** Every statistic of the run: the listed ones with their values, every other one 0. */
    private static void assertStats(JsonNode result, Map<String, Long> nonZero) {
        Map<String, Long> actual = new LinkedHashMap<>();
        result.get("stats").fields().forEachRemaining(f -> actual.put(f.getKey(), f.getValue().asLong()));
        assertThat(actual.keySet()).containsAll(nonZero.keySet());
        Map<String, Long> expected = new LinkedHashMap<>();
        for (String name : actual.keySet()) {
            expected.put(name, nonZero.getOrDefault(name, 0L));
        }
        assertThat(actual).containsExactlyEntriesOf(expected);
    }

    /** The one event with this action. */
    private static JsonNode only(JsonNode result, String action) {
        List<JsonNode> matching = new ArrayList<>();
        result.get("events").forEach(e -> {
            if (e.get("action").asText().equals(action)) {
                matching.add(e);
            }
        });
        assertThat(matching).as("events with action " + action).hasSize(1);
        return matching.get(0);
    }

    private static JsonNode run(String trace) {
        return run(trace, "scenario.yaml");
    }

    /** {@code run DIR/SCENARIO --trace-in DIR/trace.jsonl --format json}, which must succeed with nothing on stderr. */
    private static JsonNode run(String trace, String scenarioFile) {
        Path dir = root().resolve(trace);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(new String[] {"run", dir.resolve(scenarioFile).toString(),
                "--trace-in", dir.resolve("trace.jsonl").toString(), "--format", "json"},
                new PrintWriter(out), new PrintWriter(err));
        assertThat(err.toString()).isEmpty();
        assertThat(status).isZero();
        try {
            return JSON.readTree(out.toString());
        } catch (IOException e) {
            throw new AssertionError("run printed something that is not JSON: " + out, e);
        }
    }

    private static Path root() {
        try {
            return Path.of(EnvoyTraceTest.class.getResource("/envoy-traces").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
