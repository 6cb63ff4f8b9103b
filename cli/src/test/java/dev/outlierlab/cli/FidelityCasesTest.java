package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Envoy fidelity cases (src/test/resources/fidelity-cases, copied from the project's shared cases), each run
 * end to end and checked against Envoy's figures from its EXPECTED.md.
 */
class FidelityCasesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String file(String name) {
        try {
            return Path.of(FidelityCasesTest.class
                            .getResource("/fidelity-cases/" + name)
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode run(String scenario, String trace, String... more) {
        List<String> args = new ArrayList<>(List.of("run", file(scenario)));
        if (trace != null) {
            args.addAll(List.of("--trace-in", file(trace)));
        }
        args.addAll(List.of(more));
        args.addAll(List.of("--format", "json"));
        CliRunner.Outcome r = CliRunner.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        return r.json();
    }

    private static void assertStats(JsonNode result, Map<String, Long> expected) {
        expected.forEach((name, value) ->
                assertThat(result.get("stats").get(name).asLong()).as(name).isEqualTo(value));
    }

    private static List<String> events(JsonNode result) {
        List<String> rows = new ArrayList<>();
        for (JsonNode e : result.get("events")) {
            rows.add(e.get("time").asDouble() + " " + e.get("host").asText() + " "
                    + e.get("action").asText()
                    + (e.get("type").isNull() ? "" : " " + e.get("type").asText()));
        }
        return rows;
    }

    @Test
    void r1TheFailurePercentageListIsBuiltBeforeTheSuccessRateEjections() {
        JsonNode r = run("R1-sr-then-fp-min-hosts/scenario.yaml", "R1-sr-then-fp-min-hosts/trace.jsonl");
        assertThat(events(r)).containsExactly("10.0 h0 eject SUCCESS_RATE", "10.0 h5 eject FAILURE_PERCENTAGE");
        assertThat(r.get("events").get(1).get("hosts_evaluated").asInt()).isEqualTo(6);
        assertStats(
                r,
                Map.of(
                        "ejections_active",
                        2L,
                        "ejections_enforced_total",
                        2L,
                        "ejections_detected_success_rate",
                        1L,
                        "ejections_enforced_success_rate",
                        1L,
                        "ejections_detected_failure_percentage",
                        1L,
                        "ejections_enforced_failure_percentage",
                        1L,
                        "ejections_total",
                        1L,
                        "ejections_success_rate",
                        1L));
    }

    @Test
    void r2aAHostBothOutliersIsEjectedTwiceAndTheGaugeStaysOneTooHigh() {
        JsonNode r = run("R2-sr-and-fp-same-host/scenario.yaml", "R2-sr-and-fp-same-host/trace.jsonl");
        assertThat(events(r))
                .containsExactly("10.0 h0 eject SUCCESS_RATE", "10.0 h0 eject FAILURE_PERCENTAGE", "70.0 h0 uneject");
        JsonNode second = r.get("events").get(1);
        assertThat(second.get("already_ejected").asBoolean()).isTrue();
        assertThat(second.get("num_ejections").asInt()).isEqualTo(2);
        assertThat(second.get("explanation").asText())
                .contains("ejected a second time", "ejections_active counts it twice", "stays one too high");
        assertStats(
                r,
                Map.of(
                        "ejections_active",
                        1L,
                        "ejections_enforced_total",
                        2L,
                        "ejections_detected_success_rate",
                        1L,
                        "ejections_enforced_success_rate",
                        1L,
                        "ejections_detected_failure_percentage",
                        1L,
                        "ejections_enforced_failure_percentage",
                        1L,
                        "ejections_total",
                        1L,
                        "ejections_success_rate",
                        1L));
    }

    @Test
    void r2bWithACap20TheSecondOfferIsAnOverflow() {
        JsonNode r = run("R2-sr-and-fp-same-host/scenario-cap20.yaml", "R2-sr-and-fp-same-host/trace.jsonl");
        assertThat(r.get("events").get(1).get("explanation").asText()).contains("the cap refused it");
        assertStats(
                r,
                Map.of(
                        "ejections_overflow",
                        1L,
                        "ejections_detected_failure_percentage",
                        1L,
                        "ejections_detected_success_rate",
                        1L,
                        "ejections_enforced_success_rate",
                        1L,
                        "ejections_total",
                        1L,
                        "ejections_success_rate",
                        1L));
    }

    @Test
    void r2cTheLeakedGaugeRefusesALaterEjection() {
        JsonNode r = run("R2-sr-and-fp-same-host/scenario-cap40-leak.yaml", "R2-sr-and-fp-same-host/trace-leak.jsonl");
        assertThat(events(r)).contains("75.0 h1 eject CONSECUTIVE_5XX", "75.0 h2 overflow CONSECUTIVE_5XX");
        assertStats(
                r,
                Map.of(
                        "ejections_active",
                        2L,
                        "ejections_overflow",
                        1L,
                        "ejections_enforced_total",
                        3L,
                        "ejections_detected_consecutive_5xx",
                        2L,
                        "ejections_enforced_consecutive_5xx",
                        1L,
                        "ejections_detected_success_rate",
                        1L,
                        "ejections_enforced_success_rate",
                        1L,
                        "ejections_detected_failure_percentage",
                        1L,
                        "ejections_enforced_failure_percentage",
                        1L));
        assertStats(r, Map.of("ejections_total", 2L, "ejections_consecutive_5xx", 2L, "ejections_success_rate", 1L));
    }

    @Test
    void r3aTwoOutliersForOnePlaceAreFlaggedAsEnvoysOrderToDecide() {
        JsonNode r = run("R3-hash-order/scenario.yaml", "R3-hash-order/trace.jsonl");
        assertThat(events(r)).containsExactly("10.0 h0 eject SUCCESS_RATE", "10.0 h9 overflow SUCCESS_RATE");
        for (JsonNode e : r.get("events")) {
            assertThat(e.get("explanation").asText())
                    .contains(
                            "h0, h9 competed for too few places under the cap",
                            "Envoy may have ejected another of them");
        }
        assertStats(r, Map.of("ejections_enforced_total", 1L, "ejections_overflow", 1L));
    }

    @Test
    void r3bASuccessRateOnTheThresholdIsFlaggedAsEnvoysSummingOrderToDecide() {
        JsonNode r = run("R3-hash-order/scenario-sum-order.yaml", "R3-hash-order/trace-sum-order.jsonl");
        assertThat(events(r)).containsExactly("10.0 h0 eject SUCCESS_RATE");
        assertThat(r.get("events").get(0).get("explanation").asText())
                .contains("the success rate of h2 is within rounding of the threshold");
        assertStats(r, Map.of("ejections_detected_success_rate", 1L));
    }

    @Test
    void r4EnvoysEventLogWithItsQuirks() throws IOException {
        Path log = dir.resolve("events.jsonl");
        run(
                "R4-event-log/scenario.yaml",
                "R4-event-log/trace.jsonl",
                "--event-log",
                log.toString(),
                "--start-time",
                "2026-11-30T12:00:00Z");
        List<JsonNode> expected = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(file("R4-event-log/expected-envoy-event-log.jsonl")))) {
            ObjectNode n = (ObjectNode) JSON.readTree(line.replace("<h0 address>", "h0"));
            n.remove("timestamp");
            expected.add(n);
        }
        List<String> actualLines = Files.readAllLines(log);
        List<JsonNode> actual = new ArrayList<>();
        for (String line : actualLines) {
            ObjectNode n = (ObjectNode) JSON.readTree(line);
            n.remove("timestamp");
            actual.add(n);
        }
        assertThat(actual).containsExactlyElementsOf(expected);
        assertThat(actualLines.get(2))
                .contains("\"timestamp\":\"2026-11-30T12:00:35Z\"", "\"secs_since_last_action\":\"5\"");
    }

    @Test
    void r4bSuccessRatesAreTruncatedAndReturnsTypedConsecutive5xx() throws IOException {
        Path log = dir.resolve("sr.jsonl");
        CliRunner.Outcome r = CliRunner.run(
                "run", "--set", "outlier_detection.max_ejection_percent=34", "--event-log", log.toString());
        assertThat(r.exit()).isZero();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(6);
        JsonNode first = JSON.readTree(lines.get(0));
        assertThat(first.get("eject_success_rate_event").toString())
                .isEqualTo(
                        "{\"host_success_rate\":67,\"cluster_average_success_rate\":94,\"cluster_success_rate_ejection_threshold\":71}");
        assertThat(first.has("secs_since_last_action")).isFalse();
        JsonNode back = JSON.readTree(lines.get(1));
        assertThat(back.get("type").asText()).isEqualTo("CONSECUTIVE_5XX");
        assertThat(back.get("enforced").asBoolean()).isFalse();
        assertThat(back.get("secs_since_last_action").isTextual()).isTrue();
        assertThat(back.get("timestamp").asText()).isEqualTo("1970-01-01T00:01:10Z");
        assertThat(JSON.readTree(lines.get(2)).get("secs_since_last_action").asText())
                .isEqualTo("10");
        // the default cap: 21 overflows, and Envoy's log has no line for any of them
        CliRunner.run("run", "--event-log", log.toString());
        assertThat(Files.readString(log)).isEmpty();
    }

    @Test
    void r5SubMillisecondDurationsAreTruncatedNotRejected() {
        CliRunner.Outcome check = CliRunner.run("check", file("R5-submillisecond-durations/envoy-cluster.yaml"));
        assertThat(check.out())
                .doesNotContain("invalid-config", "Envoy rejects")
                .contains("interval 10.0005s is read as 10000 ms", "base_ejection_time 30.0009s is read as 30000 ms");
        assertThat(check.exit()).as(check.out()).isZero();
        CliRunner.Outcome run = CliRunner.run(
                "run", "--envoy", file("R5-submillisecond-durations/envoy-cluster.yaml"), "--format", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode od = run.json().get("scenario").get("outlier_detection");
        assertThat(od.get("interval").asText()).isEqualTo("10s");
        assertThat(od.get("base_ejection_time").asText()).isEqualTo("30s");
        CliRunner.Outcome set =
                CliRunner.run("run", "--set", "outlier_detection.base_ejection_time=30.0005s", "--format", "json");
        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(set.json()
                        .get("scenario")
                        .get("outlier_detection")
                        .get("base_ejection_time")
                        .asText())
                .isEqualTo("30s");
    }

    @Test
    void r5bAnIntervalUnderAMillisecondIsAcceptedByEnvoyAndNotClaimedRejected() throws IOException {
        // Envoy's validateDuration refuses only negative or out-of-range values; 0.0005s truncates to a 0 ms interval
        Path f = dir.resolve("tiny.yaml");
        Files.writeString(
                f,
                Files.readString(Path.of(file("R5-submillisecond-durations/envoy-cluster.yaml")))
                        .replace("interval: 10.0005s", "interval: 0.0005s"));
        CliRunner.Outcome check = CliRunner.run("check", f.toString());
        assertThat(check.out())
                .doesNotContain("invalid-config", "Envoy rejects")
                .contains(
                        "warning not-modelled", "outlier_detection.interval 0.0005s is read as 0 ms: Envoy accepts it");
        assertThat(check.exit()).as(check.out()).isZero();
        CliRunner.Outcome run = CliRunner.run("run", "--envoy", f.toString());
        run.assertRejected("outlier_detection.interval", "Envoy accepts 0.0005s", "the lab does not simulate");
        assertThat(run.err()).doesNotContain("Envoy rejects");
        CliRunner.run("run", "--set", "outlier_detection.interval=0.0005s").assertRejected("Envoy accepts it");
    }

    @Test
    void r6AnUnexpectedStatusFailsTheHostAtOnceATimeoutAtTheThreshold() {
        // Re-checked against HealthCheckerImplBase::interval: the first probe runs at 0 s, before any request, so the
        // next waits no_traffic_interval (60 s): no probe falls in the fault [30 s, 60 s) and there is no panic at all
        JsonNode envoyDefault = run("R6-hc-unhealthy-threshold/scenario.yaml", null);
        assertThat(envoyDefault.get("summary").get("panic_seconds").asDouble()).isZero();
        assertThat(run("R6-hc-unhealthy-threshold/scenario.yaml", null, "--set", "faults[0].fails_health_check=timeout")
                        .get("summary")
                        .get("panic_seconds")
                        .asDouble())
                .isZero();
        // with no_traffic_interval 5s the probes come every 5 s as the case assumed. A status fails host-0 at the
        // probe at 30 s; passes at 60 s (pending, healthy_edge_interval) and 65 s clear it: panic 30..65 s = 35 s
        JsonNode status =
                run("R6-hc-unhealthy-threshold/scenario.yaml", null, "--set", "health_checks.no_traffic_interval=5s");
        assertThat(status.get("summary").get("panic_seconds").asDouble()).isEqualTo(35.0);
        // timeouts (1 s) land a timeout after each probe and the next probe is armed then: failures at 31, 37 and 43 s,
        // failed at 43 s, cleared at 65 s: 22 s
        JsonNode timeout = run(
                "R6-hc-unhealthy-threshold/scenario.yaml",
                null,
                "--set",
                "faults[0].fails_health_check=timeout",
                "--set",
                "health_checks.no_traffic_interval=5s");
        assertThat(timeout.get("summary").get("panic_seconds").asDouble()).isEqualTo(22.0);
    }

    @Test
    void r7InSplitModeTimeoutsNeverReachConsecutiveLocalOriginFailure() {
        JsonNode r = run("R7-split-timeout-connect-success/scenario.yaml", null);
        assertStats(r, Map.of("ejections_detected_consecutive_local_origin_failure", 0L));
        JsonNode first = r.get("events").get(0);
        assertThat(events(r).get(0)).isEqualTo("10.0 host-0 eject SUCCESS_RATE_LOCAL_ORIGIN");
        assertThat(first.get("host_success_rate").asDouble()).isEqualTo(50.0);
        assertThat(first.get("cluster_average_success_rate").asDouble()).isEqualTo(91.66666666666667);
        assertThat(first.get("cluster_success_rate_ejection_threshold").asDouble())
                .isEqualTo(56.262257022920004);
        // the replayed router-faithful trace gives the same decision
        JsonNode trace = run(
                "R7-split-timeout-connect-success/scenario-trace.yaml",
                "R7-split-timeout-connect-success/envoy-faithful-trace.jsonl");
        assertThat(events(trace).get(0)).isEqualTo("10.0 host-0 eject SUCCESS_RATE_LOCAL_ORIGIN");
        assertThat(trace.get("events")
                        .get(0)
                        .get("cluster_success_rate_ejection_threshold")
                        .asDouble())
                .isEqualTo(56.262257022920004);
    }
}
