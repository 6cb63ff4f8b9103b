package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * The nine "Run controlled comparisons" of the seed lab, end to end through {@code outlier-lab run}, each
 * asserting the figures the lab model's rules give (see the README's table for where the seed differs).
 */
class SeedComparisonsTest {
    private static final String CAP34 = "outlier_detection.max_ejection_percent=34";
    private static final String SR_OFF = "outlier_detection.enforcing_success_rate=0";

    private static CliRunner.Outcome run(String... sets) {
        String[] args = new String[2 + 2 * sets.length];
        args[0] = "run";
        args[1] = "--format=json";
        for (int i = 0; i < sets.length; i++) {
            args[2 + 2 * i] = "--set";
            args[3 + 2 * i] = sets[i];
        }
        CliRunner.Outcome o = CliRunner.run(args);
        assertThat(o.exit()).as(o.err()).isZero();
        return o;
    }

    @Test
    void defaultsDetect21TimesAndTheTenPercentCapRefusesEveryEjection() {
        CliRunner.Outcome o = run();
        JsonNode s = o.json().get("summary");
        assertThat(s.get("requests").asLong()).isEqualTo(180_000);
        assertThat(s.get("failed").asLong()).isEqualTo(6_930); // 210 s x 100 rps x 33 %
        assertThat(s.get("requests_during_fault").asLong()).isEqualTo(126_000);
        assertThat(s.get("failed_percent_during_fault").asDouble()).isEqualTo(5.5);
        assertThat(s.get("ejections_detected").asLong()).isEqualTo(21); // ticks 40 s .. 240 s
        assertThat(s.get("ejections_overflow").asLong()).isEqualTo(21);
        assertThat(s.get("ejections_enforced").asLong()).isZero();
        assertThat(o.json().get("stats").get("ejections_overflow").asLong()).isEqualTo(21);
        assertThat(o.events("overflow")).first().isEqualTo("40000000000 host-0 SUCCESS_RATE");
        assertThat(o.events("overflow")).last().isEqualTo("240000000000 host-0 SUCCESS_RATE");
        JsonNode first = o.json().get("events").get(0);
        assertThat(first.get("host_success_rate").asDouble()).isEqualTo(67.0);
        assertThat(first.get("cap").get("percent_if_ejected").asDouble()).isCloseTo(16.667, within(0.001));
    }

    @Test
    void capOf34EjectsAt40And80And150WithGrowingEjectionTimes() {
        CliRunner.Outcome o = run(CAP34);
        assertThat(o.events("eject"))
                .containsExactly(
                        "40000000000 host-0 SUCCESS_RATE",
                        "80000000000 host-0 SUCCESS_RATE",
                        "150000000000 host-0 SUCCESS_RATE");
        assertThat(o.events("uneject"))
                .containsExactly("70000000000 host-0", "140000000000 host-0", "240000000000 host-0");
        JsonNode s = o.json().get("summary");
        assertThat(s.get("failed_during_fault").asLong()).isEqualTo(990); // 30 s in rotation x 100 rps x 33 %
        assertThat(s.get("failed_percent_during_fault").asDouble()).isCloseTo(0.79, within(0.005));
    }

    @Test
    void alwaysEjectOneHostInsteadGivesTheSameResult() {
        CliRunner.Outcome cap = run(CAP34);
        CliRunner.Outcome always = run("outlier_detection.always_eject_one_host=true");
        assertThat(always.events("eject")).isEqualTo(cap.events("eject"));
        assertThat(always.events("uneject")).isEqualTo(cap.events("uneject"));
        assertThat(always.json().get("summary").get("failed").asLong()).isEqualTo(990);
        assertThat(always.json().get("events").get(0).get("cap").get("allowed").asBoolean())
                .isTrue();
        assertThat(always.json()
                        .get("events")
                        .get(0)
                        .get("cap")
                        .get("percent_if_ejected")
                        .asDouble())
                .isGreaterThan(10);
    }

    @Test
    void successRateOffEjectsNothingBecauseOneInThreeNeverReachesFiveInARow() {
        CliRunner.Outcome o = run(CAP34, SR_OFF);
        JsonNode s = o.json().get("summary");
        assertThat(o.events("eject")).isEmpty();
        assertThat(s.get("ejections_unenforced").asLong()).isEqualTo(21);
        assertThat(o.json()
                        .get("stats")
                        .get("ejections_detected_consecutive_5xx")
                        .asLong())
                .isZero();
        assertThat(s.get("failed").asLong()).isEqualTo(6_930);
    }

    @Test
    void errorRate100EjectsByConsecutive5xxAtThirtySeconds() {
        CliRunner.Outcome o = run(CAP34, SR_OFF, "faults[0].error_rate=100");
        // host-0 gets every sixth request: 30.00, 30.01, ... its fifth failure is at 30.04 s
        assertThat(o.events("eject"))
                .containsExactly(
                        "30040000000 host-0 CONSECUTIVE_5XX",
                        "70040000000 host-0 CONSECUTIVE_5XX",
                        "140040000000 host-0 CONSECUTIVE_5XX");
        assertThat(o.json().get("summary").get("failed").asLong()).isEqualTo(15);
    }

    @Test
    void tenHostsAtOneThousandRpsLetTheDefaultCapEjectOne() {
        CliRunner.Outcome o = run("cluster.hosts=10", "traffic.rps=1000");
        assertThat(o.events("eject"))
                .containsExactly(
                        "40000000000 host-0 SUCCESS_RATE",
                        "80000000000 host-0 SUCCESS_RATE",
                        "150000000000 host-0 SUCCESS_RATE");
        assertThat(o.json().get("summary").get("ejections_overflow").asLong()).isZero();
        assertThat(o.json()
                        .get("events")
                        .get(0)
                        .get("cap")
                        .get("percent_if_ejected")
                        .asDouble())
                .isEqualTo(10.0);
    }

    @Test
    void twoFaultyHostsMoveTheMeanAndSpreadSoNeitherIsEjected() {
        CliRunner.Outcome o = run(CAP34, "faults[0].hosts=2");
        JsonNode s = o.json().get("summary");
        assertThat(s.get("ejections_detected").asLong()).isZero();
        assertThat(s.get("failed_percent_during_fault").asDouble()).isEqualTo(11.0);
    }

    @Test
    void everyHostFaultyMeansNothingIsAnOutlier() {
        CliRunner.Outcome o = run(CAP34, "faults[0].hosts=6");
        JsonNode s = o.json().get("summary");
        assertThat(s.get("ejections_detected").asLong()).isZero();
        assertThat(s.get("failed_percent_during_fault").asDouble()).isEqualTo(33.0);
        assertThat(s.get("failed").asLong()).isEqualTo(41_580);
    }

    @Test
    void fourDeadHostsWithCap100EmptyTheClusterIntoPanic() {
        CliRunner.Outcome o = run(
                "faults[0].hosts=4", "faults[0].error_rate=100", SR_OFF, "outlier_detection.max_ejection_percent=100");
        JsonNode s = o.json().get("summary");
        assertThat(s.get("max_ejected_at_once").asInt()).isEqualTo(4);
        assertThat(o.events("eject"))
                .hasSize(12)
                .startsWith(
                        "30040000000 host-0 CONSECUTIVE_5XX",
                        "30041666666 host-1 CONSECUTIVE_5XX",
                        "30046666666 host-2 CONSECUTIVE_5XX",
                        "30050000000 host-3 CONSECUTIVE_5XX");
        // panic from the fourth ejection to each return: (70 - 30.05) + (140 - 70.05) + (240 - 140.05)
        assertThat(s.get("panic_ns").asLong()).isEqualTo(209_845_000_002L);
        assertThat(s.get("no_healthy_upstream").asLong()).isZero();
    }
}
