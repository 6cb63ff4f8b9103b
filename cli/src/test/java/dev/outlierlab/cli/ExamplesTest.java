package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeds' stories of when ejection makes things worse, end to end through {@code outlier-lab run --example},
 * each with its figures: when the first ejection happens, how many hosts are out at most, panic, failed requests.
 */
class ExamplesTest {
    private static CliRunner.Outcome run(String name, String... more) {
        String[] args = new String[4 + more.length];
        args[0] = "run";
        args[1] = "--example";
        args[2] = name;
        args[3] = "--format=json";
        System.arraycopy(more, 0, args, 4, more.length);
        CliRunner.Outcome o = CliRunner.run(args);
        assertThat(o.exit()).as(o.err()).isZero();
        return o;
    }

    private static long firstEjectNanos(CliRunner.Outcome o) {
        List<String> ejects = o.events("eject");
        return ejects.isEmpty() ? -1 : Long.parseLong(ejects.get(0).split(" ")[0]);
    }

    @Test
    void healthCheckThatPassesWhileTheCacheIsBrokenReturnsTheHostAtTheNextProbeEveryTime() {
        CliRunner.Outcome o = run("cache-broken-health-check");
        JsonNode s = o.json().get("summary");
        JsonNode signals = o.json().get("signals");
        assertThat(firstEjectNanos(o)).isEqualTo(40_000_000_000L);
        // Envoy's HealthCheckerImplBase: the probe at 0 s comes before any request, so the next waits
        // no_traffic_interval (60 s); then every 7 s. Ejected at 40 s and returned by the probe at 60 s; from 70 s
        // ejected at every tick and returned by the next probe: 4 s later, then 1, 5, 2, 6, 3, 0 (the probe at 130 s
        // runs right after the tick), ...
        assertThat(s.get("ejections_enforced").asLong()).isEqualTo(19);
        assertThat(signals.get("returns").get("active_health_check").asLong()).isEqualTo(19);
        assertThat(signals.get("returns").get("ejection_time_elapsed").asLong()).isZero();
        assertThat(o.events("uneject"))
                .startsWith(
                        "60000000000 host-0",
                        "74000000000 host-0",
                        "81000000000 host-0",
                        "95000000000 host-0",
                        "102000000000 host-0");
        JsonNode flap = signals.get("flapping").get(0);
        assertThat(flap.get("host").asText()).isEqualTo("host-0");
        assertThat(flap.get("ejections").asInt()).isEqualTo(18); // from 70 s: the first stay lasted 20 s
        assertThat(flap.get("per_minute").asDouble()).isEqualTo(6.0);
        assertThat(flap.get("health_check_healthy_flat").asBoolean()).isTrue();
        // the dashboard: ejections_active rises and falls, the health checks' view stays at 6
        assertThat(signals.get("ejections_active").get(40).asInt()).isEqualTo(1);
        assertThat(signals.get("ejections_active").get(41).asInt()).isEqualTo(1);
        assertThat(signals.get("ejections_active").get(59).asInt()).isEqualTo(1);
        assertThat(signals.get("ejections_active").get(60).asInt()).isZero();
        assertThat(signals.get("membership_healthy").get(40).asInt()).isEqualTo(5);
        assertThat(signals.get("ejections_enforced").get(40).asInt()).isEqualTo(1);
        for (JsonNode v : signals.get("health_check_healthy")) {
            assertThat(v.asInt()).isEqualTo(6);
        }
        assertThat(s.get("max_ejected_at_once").asInt()).isEqualTo(1);
        assertThat(s.get("panic_ns").asLong()).isZero();
        assertThat(s.get("failed").asLong()).isEqualTo(4_554); // 6,930 less what host-0 missed while out
    }

    @Test
    void withoutUnejectByHealthCheckTheHostStaysOutItsFullTimeAndNothingFlaps() {
        CliRunner.Outcome o = run("cache-broken-no-uneject");
        assertThat(o.events("eject"))
                .containsExactly(
                        "40000000000 host-0 SUCCESS_RATE",
                        "80000000000 host-0 SUCCESS_RATE",
                        "150000000000 host-0 SUCCESS_RATE");
        JsonNode signals = o.json().get("signals");
        assertThat(signals.get("flapping")).isEmpty();
        assertThat(signals.get("returns").get("ejection_time_elapsed").asLong()).isEqualTo(3);
        assertThat(o.json().get("summary").get("failed").asLong()).isEqualTo(990);
    }

    @Test
    void deadHostIsTakenOutByHealthChecksBeforeTrafficArrivesSoNoRequestFails() {
        CliRunner.Outcome o = run("dead-host-health-checks");
        JsonNode s = o.json().get("summary");
        JsonNode signals = o.json().get("signals");
        assertThat(firstEjectNanos(o)).isEqualTo(-1);
        assertThat(s.get("failed").asLong()).isZero();
        assertThat(s.get("requests").asLong()).isEqualTo(54_000); // 90 s x 600 rps from 30 s
        // Envoy starts a health-checked static cluster's hosts failed (StaticClusterImpl::startPreInit); the probes at
        // 0 s clear the five live hosts (a first pass clears at once) and leave host-0, refused, failed from the start
        assertThat(signals.get("health_check_healthy").get(0).asInt()).isEqualTo(5);
        assertThat(signals.get("health_check_healthy").get(29).asInt()).isEqualTo(5);
        assertThat(signals.get("membership_healthy").get(10).asInt()).isEqualTo(5);
        assertThat(signals.get("ejections_active").get(10).asInt()).isZero();
        assertThat(signals.get("requests").get(29).asLong()).isZero();
        assertThat(signals.get("requests").get(30).asLong()).isEqualTo(600);
    }

    @Test
    void deadHostWithoutHealthChecksIsEjectedByConsecutiveErrorsWithinFiveRequests() {
        CliRunner.Outcome o = run("dead-host-no-health-checks");
        // host-0 gets every sixth request from 30 s: 30.00, 30.01, ... its fifth refused connection is at 30.04 s
        assertThat(o.events("eject"))
                .containsExactly("30040000000 host-0 CONSECUTIVE_5XX", "70040000000 host-0 CONSECUTIVE_5XX");
        JsonNode s = o.json().get("summary");
        assertThat(s.get("failed").asLong()).isEqualTo(10);
        assertThat(s.get("max_ejected_at_once").asInt()).isEqualTo(1);
        assertThat(o.json()
                        .get("signals")
                        .get("requests_by_outcome")
                        .get("failed_fault")
                        .asLong())
                .isEqualTo(10);
    }

    @Test
    void overloadWithCap100CascadesUntilPanicSpreadsTrafficOverEveryHostAgain() {
        CliRunner.Outcome o = run("overload-cap-100");
        JsonNode s = o.json().get("summary");
        JsonNode byOutcome = o.json().get("signals").get("requests_by_outcome");
        assertThat(o.events("eject"))
                .startsWith(
                        "30037263801 host-0 CONSECUTIVE_5XX",
                        "50000000000 host-3 SUCCESS_RATE",
                        "51844068924 host-1 CONSECUTIVE_5XX");
        assertThat(s.get("max_ejected_at_once").asInt()).isEqualTo(5);
        assertThat(s.get("panic_ns").asLong()).isEqualTo(234_664_996_760L);
        assertThat(s.get("failed").asLong()).isEqualTo(26_098);
        assertThat(byOutcome.get("failed_capacity").asLong()).isEqualTo(2_527);
        assertThat(byOutcome.get("failed_fault").asLong()).isEqualTo(23_571); // panic sends traffic to the dead host
    }

    @Test
    void overloadWithCap34StopsTheCascadeAtTwoHostsAndNeverPanics() {
        CliRunner.Outcome o = run("overload-cap-34");
        JsonNode s = o.json().get("summary");
        JsonNode byOutcome = o.json().get("signals").get("requests_by_outcome");
        assertThat(firstEjectNanos(o)).isEqualTo(30_037_263_801L);
        assertThat(s.get("max_ejected_at_once").asInt()).isEqualTo(2);
        assertThat(s.get("panic_ns").asLong()).isZero();
        assertThat(s.get("ejections_overflow").asLong()).isEqualTo(84);
        assertThat(s.get("failed").asLong()).isEqualTo(19_165);
        assertThat(byOutcome.get("failed_capacity").asLong()).isEqualTo(19_145);
        assertThat(byOutcome.get("failed_fault").asLong()).isEqualTo(20);
    }

    @Test
    void sharedOutageEjectsNothingBecauseNoHostIsAnOutlier() {
        CliRunner.Outcome o = run("shared-outage");
        JsonNode s = o.json().get("summary");
        assertThat(o.json().get("scenario").get("faults").get(0).get("hosts")).hasSize(6);
        assertThat(s.get("ejections_detected").asLong()).isZero();
        assertThat(s.get("max_ejected_at_once").asInt()).isZero();
        assertThat(s.get("failed").asLong()).isEqualTo(41_580);
        assertThat(s.get("failed_percent_during_fault").asDouble()).isEqualTo(33.0);
    }

    @Test
    void largeClusterAtLowTrafficNeverGivesSuccessRateTheVolume() {
        CliRunner.Outcome o = run("large-cluster-low-traffic");
        JsonNode s = o.json().get("summary");
        JsonNode stats = o.json().get("stats");
        assertThat(stats.get("ejections_detected_success_rate").asLong()).isZero();
        // the dead host-1 gets half a request a second: its fifth refused connection comes 8 s after 30 s
        assertThat(o.events("eject")).first().isEqualTo("38119275134 host-1 CONSECUTIVE_5XX");
        assertThat(o.events("eject")).allMatch(e -> e.contains("host-1"));
        assertThat(s.get("max_ejected_at_once").asInt()).isEqualTo(1);
        assertThat(s.get("failed").asLong()).isEqualTo(59);
        assertThat(s.get("requests").asLong()).isEqualTo(30_172); // Poisson around 100 rps x 300 s
    }

    @Test
    void listExamplesNamesEveryStory() {
        CliRunner.Outcome o = CliRunner.run("run", "--list-examples");
        assertThat(o.exit()).isZero();
        assertThat(o.out().lines())
                .hasSize(8)
                .anyMatch(l -> l.startsWith("overload-cap-100 "))
                .anyMatch(l -> l.startsWith("large-cluster-low-traffic "));
    }

    @Test
    void seriesWritesOneCsvRowPerSecond(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("signals.csv");
        CliRunner.Outcome o =
                CliRunner.run("run", "--example", "cache-broken-health-check", "--series", csv.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        List<String> rows = Files.readAllLines(csv);
        assertThat(rows).hasSize(301);
        assertThat(rows.get(0))
                .isEqualTo("time,membership_total,membership_healthy,health_check_healthy,"
                        + "ejections_active,ejections_enforced,requests,failed,panic");
        assertThat(rows.get(41)).isEqualTo("40,6,5,6,1,1,600,0,0");
        assertThat(rows.get(43)).isEqualTo("42,6,5,6,1,0,600,0,0");
        assertThat(rows.get(61)).isEqualTo("60,6,6,6,0,0,600,33,0");
        assertThat(o.out())
                .contains("flapping      host-0: ejected 18 times from 70 s to 240 s (6.0 per minute), "
                        + "each time returned by a passing active health check; health_check_healthy stayed at 6 of 6");
    }

    @Test
    void theTextReportAnalysesEveryEventEvenWhenItShowsFew() {
        CliRunner.Outcome o = CliRunner.run("run", "--example", "cache-broken-health-check", "--events", "3");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains("returned by   0 after the ejection time, 19 by a passing active health check")
                .contains("host-0: ejected 18 times from 70 s to 240 s");
    }

    @Test
    void anUnknownExampleIsRejectedWithTheNames() {
        CliRunner.run("run", "--example", "nope")
                .assertRejected("--example: 'nope' is not an example", "overload-cap-100");
    }
}
