package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The question users ask (issue 19): an Istio user with six pods, one failing 30 % of its requests with no pattern
 * named, and the DestinationRule of docs/examples. With one caller the random failures eject host-0 within seconds
 * of the fault; with 50 callers (the mesh's shape) each sidecar sees 2 requests a second per host, success rate can
 * never run, and every caller ejects on its own.
 */
class CallersCommandTest {
    private static final String RULE = "../docs/examples/reviews-destination-rule.yaml";
    private static final String FAULT = "../docs/examples/one-host-failing-30.yaml";

    /** {@code run FAULT --istio RULE --hosts 6 ARGS}: the one-host fault under the reviews rule. */
    private static CliRunner.Outcome runIstio(String... args) {
        List<String> all = new ArrayList<>(List.of("run", FAULT, "--istio", RULE, "--hosts", "6"));
        all.addAll(List.of(args));
        return CliRunner.run(all.toArray(String[]::new));
    }

    @TempDir
    Path dir;

    @Test
    void aDestinationRuleWithOneHostFailing30PercentAtRandomEjectsItWithinSeconds() {
        CliRunner.Outcome json =
                runIstio("--set", "cluster.lb_policy=round_robin", "--set", "traffic.retries=none", "--format", "json");
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.json()
                        .get("scenario")
                        .get("faults")
                        .get(0)
                        .get("pattern")
                        .asText())
                .isEqualTo("random");
        assertThat(json.events("eject").get(0)).isEqualTo("30610000000 host-0 CONSECUTIVE_5XX");
        JsonNode summary = json.json().get("summary");
        assertThat(summary.get("failed_during_fault").asLong()).isEqualTo(317);
        assertThat(summary.get("requests_during_fault").asLong()).isEqualTo(126_000);
        assertThat(summary.has("clients")).isFalse();

        String text = runIstio("--set", "cluster.lb_policy=round_robin", "--set", "traffic.retries=none")
                .out();
        assertThat(text)
                .contains("host-0: 30 % fail at random with 503 from 30 s to 240 s")
                .contains("What the answer hinges on")
                .contains("  pattern       failing evenly instead of at random changes the decisions: 0 ejections, "
                        + "21 detections instead of 3 ejections (first at 30.610 s), 6 detections; see ./outlier-lab run "
                        + FAULT + " --istio " + RULE
                        + " --hosts 6 --set cluster.lb_policy=round_robin --set traffic.retries=none"
                        + " --set faults[0].pattern=even");
        // the command it names shows it: evenly, consecutive 5xx never fires
        CliRunner.Outcome even = runIstio(
                "--set",
                "cluster.lb_policy=round_robin",
                "--set",
                "traffic.retries=none",
                "--set",
                "faults[0].pattern=even",
                "--format",
                "json");
        assertThat(even.events("eject")).isEmpty();
        assertThat(even.json().get("summary").get("ejections_detected").asLong())
                .isEqualTo(21);
    }

    @Test
    void istiodsOwnRoutingRetriesTheFailuresTheDetectorCounts() {
        // the tests here run the lab model's routing (round robin, no retries) to show the callers alone; run --istio
        // without those --set applies istiod's LEAST_REQUEST and DefaultPolicy retries (503 and connect-failure on
        // another host): the detector counts each failed attempt, the callers see none fail
        JsonNode summary = runIstio("--format", "json").json().get("summary");
        assertThat(summary.get("upstream_failed").asLong()).isGreaterThan(300);
        assertThat(summary.get("retries").asLong())
                .isEqualTo(summary.get("upstream_failed").asLong());
        assertThat(summary.get("failed").asLong()).isZero();
        JsonNode none = runIstio("--set", "traffic.retries=none", "--format", "json")
                .json()
                .get("summary");
        assertThat(none.get("failed").asLong()).isPositive();
    }

    @Test
    void with50CallersSuccessRateNeverRunsAndEachCallerEjectsOnItsOwn() {
        String[] args = {
            "run",
            FAULT,
            "--istio",
            RULE,
            "--hosts",
            "6",
            "--set",
            "cluster.lb_policy=round_robin",
            "--set",
            "traffic.retries=none",
            "--clients",
            "50",
            "--events",
            "4"
        };
        CliRunner.Outcome r = CliRunner.run(args);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("600 requests/s, shared over 50 callers (request i from caller i mod 50)")
                .contains("  callers       50 callers, each its own detector with its own rotation and panic state: "
                        + "600 rps over 50 callers is 12 rps each, 2 per host")
                .contains(
                        "  success rate  can never run: each caller sends about 120 requests per 10 s interval, 20 to "
                                + "each host, below success_rate_request_volume 100 (5 hosts with 100 each would need 500 from "
                                + "one caller)")
                .contains("  failure pct   can never run:")
                .contains("  time     caller host   action     detector")
                .contains("  34.387 s 32     host-0 eject      consecutive_5xx")
                .contains("  most out      1 of 6 hosts ejected at once by one caller");
        assertThat(CliRunner.run(args).out()).isEqualTo(r.out());

        CliRunner.Outcome json = runIstio(
                "--set",
                "cluster.lb_policy=round_robin",
                "--set",
                "traffic.retries=none",
                "--clients",
                "50",
                "--format",
                "json");
        JsonNode root = json.json();
        assertThat(root.get("scenario").get("traffic").get("clients").asInt()).isEqualTo(50);
        JsonNode summary = root.get("summary");
        assertThat(summary.get("clients").asInt()).isEqualTo(50);
        assertThat(summary.get("ejections_enforced").asLong()).isEqualTo(20);
        assertThat(summary.get("max_ejected_at_once").asInt()).isEqualTo(1);
        assertThat(summary.get("host_ejected_caller_percent").get("host-0").asDouble())
                .isBetween(4.0, 5.0);
        assertThat(summary.get("host_ejected_caller_percent").get("host-1").asDouble())
                .isZero();
        Set<Integer> ejecting = new TreeSet<>();
        for (JsonNode e : root.get("events")) {
            assertThat(e.has("client")).isTrue();
            if (e.get("action").asText().equals("eject")) {
                ejecting.add(e.get("client").asInt());
                assertThat(e.get("type").asText()).isEqualTo("CONSECUTIVE_5XX");
            }
        }
        assertThat(ejecting).hasSizeGreaterThan(10).allMatch(c -> c >= 0 && c < 50);
        assertThat(root.get("events").get(0).get("client").asInt()).isEqualTo(32);
        assertThat(root.get("events").get(0).get("time_ns").asLong()).isEqualTo(34_386_666_666L);
    }

    @Test
    void checkGivesTheSamePerCallerVerdictAsFindings() {
        String cluster = "../docs/examples/search-cluster.yaml";
        CliRunner.Outcome one = CliRunner.run("check", cluster, "--rps", "600", "--format", "json");
        CliRunner.Outcome many = CliRunner.run("check", cluster, "--rps", "600", "--clients", "50", "--format", "json");
        assertThat(one.out()).doesNotContain("volume-unreachable");
        assertThat(many.json().get("clients").asInt()).isEqualTo(50);
        JsonNode finding = null;
        for (JsonNode f : many.json().get("findings")) {
            if (f.get("id").asText().equals("success-rate-volume-unreachable")) {
                finding = f;
            }
        }
        assertThat(finding).as(many.out()).isNotNull();
        assertThat(finding.get("message").asText())
                .startsWith(
                        "success-rate detection can never run for any "
                                + "caller: at 600 rps over 50 callers, each caller (its own detector) sends 12 rps: about 120 requests "
                                + "per 10s interval, 20 to each of 6 hosts, below success_rate_request_volume 100, and 5 hosts with 100 "
                                + "each would need 500 from one caller. It needs 3000 rps over the 50 callers, an interval of 50s");
        assertThat(finding.get("numbers")
                        .get("requests_per_host_per_client_per_interval")
                        .asDouble())
                .isEqualTo(20.0);
        assertThat(finding.get("numbers").get("never_runs").asBoolean()).isTrue();
        String text = CliRunner.run("check", cluster, "--rps", "600", "--clients", "50")
                .out();
        assertThat(text).contains("(600 rps over 50 callers, 12 rps each)");
        // the DestinationRule enforces only consecutive 5xx: the time to five random failures in a row is per caller
        String rule = CliRunner.run("check", RULE, "--hosts", "6", "--rps", "600", "--clients", "50")
                .out()
                .replaceAll("\\s+", " ");
        assertThat(rule)
                .contains("after 380 requests on average, 189.9 s at 2 requests per second to the host from "
                        + "each of 50 callers");
    }

    @Test
    void noCallerAFractionOrMoreCallersThanRequestsInASecondIsOneMessageAndExit2() throws IOException {
        CliRunner.run("run", "--clients", "0")
                .assertRejected("--clients: 0 is not allowed", "a whole number of callers from 1 to 10000");
        CliRunner.run("run", "--clients", "2.5").assertRejected("--clients", "2.5");
        CliRunner.run("run", "--set", "traffic.clients=2.5").assertRejected("traffic.clients: 2.5 is not allowed");
        CliRunner.run("run", "--clients", "601")
                .assertRejected(
                        "traffic.clients: 601 is not allowed",
                        "at most traffic.rps, 600: every caller sends at least one request a second");
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, "traffic:\n  rps: 40\n  clients: 50\n");
        CliRunner.run("run", f.toString()).assertRejected("s.yaml:3: traffic.clients: 50 is not allowed");
        CliRunner.run("check", RULE, "--rps", "40", "--clients", "50")
                .assertRejected("--clients: 50 is not allowed", "at most --rps, 40");
        CliRunner.run("check", RULE, "--clients", "0").assertRejected("--clients: 0 is not allowed");
    }
}
