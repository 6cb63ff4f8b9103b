package dev.outlierlab.cli;

import static dev.outlierlab.cli.EnvoyTraces.C5XX;
import static dev.outlierlab.cli.EnvoyTraces.GATEWAY;
import static dev.outlierlab.cli.EnvoyTraces.LOCAL;
import static dev.outlierlab.cli.EnvoyTraces.MS;
import static dev.outlierlab.cli.EnvoyTraces.S;
import static dev.outlierlab.cli.EnvoyTraces.assertEvents;
import static dev.outlierlab.cli.EnvoyTraces.assertStats;
import static dev.outlierlab.cli.EnvoyTraces.eject;
import static dev.outlierlab.cli.EnvoyTraces.run;
import static dev.outlierlab.cli.EnvoyTraces.stats;
import static dev.outlierlab.cli.EnvoyTraces.uneject;
import static dev.outlierlab.cli.EnvoyTraces.unenforced;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Envoy's tests of the consecutive-failure detectors, restated as outcome traces: consecutive 5xx and consecutive
 * gateway failure (enforced or not, an already-ejected host, an active health check returning the host), how
 * local-origin results count when they are not split from the external ones (mapped to HTTP codes), and
 * consecutive local-origin failure with {@code split_external_local_origin_errors}. Every event and every
 * statistic is checked against the figures Envoy's test asserts.
 *
 * <p>How a trace is run and its result read: {@link EnvoyTraces}.
 */
class EnvoyTraceConsecutiveFailuresTest {
    // ------------------------------------------------------------------------------------------------------------
    // Consecutive 5xx and gateway failure

    @Test
    @DisplayName(
            "BasicFlow5xxViaHttpCodes: ejected by the 5th consecutive 5xx, back at the tick 30 s later, ejected again for 2 x base")
    void basicFlow5xx() {
        JsonNode r = run("basic-flow-5xx");
        assertEvents(
                r, eject(0, "h0", C5XX, 30 * S, 1), uneject(30 * S, "h0"), eject(39_999 * MS, "h0", C5XX, 60 * S, 2));
        assertStats(
                r,
                stats(
                        "ejections_active", 1,
                        "ejections_enforced_total", 2,
                        "ejections_detected_consecutive_5xx", 2,
                        "ejections_enforced_consecutive_5xx", 2,
                        "ejections_total", 2,
                        "ejections_consecutive_5xx", 2));
    }

    @Test
    @DisplayName(
            "BasicFlowGatewayFailure: a 500 breaks the gateway run, not the 5xx run; gateway failure enforced, 5xx not")
    void gatewayFailure() {
        JsonNode r = run("gateway-failure");
        assertEvents(
                r,
                unenforced(0, "h0", C5XX),
                eject(0, "h0", GATEWAY, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(39_999 * MS, "h0", GATEWAY, 60 * S, 2));
        assertStats(
                r,
                stats(
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
        assertEvents(
                r,
                eject(0, "h0", GATEWAY, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(39_999 * MS, "h0", C5XX, 60 * S, 2));
        assertStats(
                r,
                stats(
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
        assertEvents(r, unenforced(0, "h0", GATEWAY), unenforced(0, "h0", C5XX));
        assertStats(
                r,
                stats(
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
        assertStats(
                r,
                stats(
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
        assertEvents(
                r,
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
        assertStats(
                r,
                stats(
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
        assertEvents(
                r,
                unenforced(0, "h0", GATEWAY),
                eject(0, "h0", C5XX, 30 * S, 1),
                uneject(30 * S, "h0"),
                unenforced(39_999 * MS, "h0", GATEWAY),
                eject(39_999 * MS, "h0", C5XX, 60 * S, 2));
        assertStats(
                r,
                stats(
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
        assertEvents(
                r,
                eject(0, "h0", C5XX, 30 * S, 1),
                uneject(30 * S, "h0"),
                unenforced(30 * S, "h0", GATEWAY),
                eject(30 * S, "h0", C5XX, 60 * S, 2));
        assertStats(
                r,
                stats(
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
        assertEvents(r, unenforced(5 * S, "h0", GATEWAY), eject(5 * S, "h0", C5XX, 30 * S, 1));
        assertStats(
                r,
                stats(
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
        assertEvents(
                r,
                eject(0, "h0", LOCAL, 30 * S, 1),
                uneject(30 * S, "h0"),
                eject(30 * S, "h0", LOCAL, 60 * S, 2),
                uneject(90 * S, "h0"));
        assertStats(
                r,
                stats(
                        "ejections_enforced_total", 2,
                        "ejections_detected_consecutive_local_origin_failure", 2,
                        "ejections_enforced_consecutive_local_origin_failure", 2));
    }

    @Test
    @DisplayName("LargeNumberOfTimeouts: timeouts while ejected neither delay the return nor trigger again")
    void splitLargeNumberOfTimeouts() {
        JsonNode r = run("split-large-number-of-timeouts");
        assertEvents(r, eject(0, "h0", LOCAL, 30 * S, 1), uneject(30 * S, "h0"), eject(30 * S, "h0", LOCAL, 60 * S, 2));
        assertStats(
                r,
                stats(
                        "ejections_active", 1,
                        "ejections_enforced_total", 2,
                        "ejections_detected_consecutive_local_origin_failure", 2,
                        "ejections_enforced_consecutive_local_origin_failure", 2));
    }

    @Test
    @DisplayName("ExternalOriginEventsWithSplit: ext_failed and ext_success cancel; 100 ext_failed eject once by 5xx")
    void splitExternalOriginEvents() {
        JsonNode r = run("split-external-origin-events");
        assertEvents(r, unenforced(2 * S, "h0", GATEWAY), eject(2 * S, "h0", C5XX, 30 * S, 1));
        assertStats(
                r,
                stats(
                        "ejections_active", 1,
                        "ejections_enforced_total", 1,
                        "ejections_detected_consecutive_5xx", 1,
                        "ejections_enforced_consecutive_5xx", 1,
                        "ejections_detected_consecutive_gateway_failure", 1,
                        "ejections_total", 1,
                        "ejections_consecutive_5xx", 1));
    }
}
