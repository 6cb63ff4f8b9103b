package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pattern: random | bursts} end to end: what consecutive 5xx sees of failures that are not even. */
class FaultPatternCommandTest {
    private static final String[] RANDOM_CAP34 = {
        "--set",
        "faults[0].pattern=random",
        "--set",
        "outlier_detection.enforcing_success_rate=0",
        "--set",
        "outlier_detection.max_ejection_percent=34"
    };

    @TempDir
    Path dir;

    private static String[] run(String... more) {
        String[] args = new String[1 + RANDOM_CAP34.length + more.length];
        args[0] = "run";
        System.arraycopy(RANDOM_CAP34, 0, args, 1, RANDOM_CAP34.length);
        System.arraycopy(more, 0, args, 1 + RANDOM_CAP34.length, more.length);
        return args;
    }

    @Test
    void randomFailuresAt33PercentGiveConsecutive5xxItsFiveInARow() {
        CliRunner.Outcome even = CliRunner.run(
                "run",
                "--set",
                "outlier_detection.enforcing_success_rate=0",
                "--set",
                "outlier_detection.max_ejection_percent=34",
                "--format",
                "json");
        assertThat(even.json()
                        .get("stats")
                        .get("ejections_detected_consecutive_5xx")
                        .asLong())
                .isZero();

        CliRunner.Outcome random = CliRunner.run(run("--format", "json"));
        assertThat(random.exit()).as(random.err()).isZero();
        assertThat(random.json()
                        .get("scenario")
                        .get("faults")
                        .get(0)
                        .get("pattern")
                        .asText())
                .isEqualTo("random");
        assertThat(random.events("eject"))
                .containsExactly(
                        "30610000000 host-0 CONSECUTIVE_5XX",
                        "70530000000 host-0 CONSECUTIVE_5XX",
                        "147350000000 host-0 CONSECUTIVE_5XX");
        assertThat(random.events("uneject"))
                .containsExactly("70000000000 host-0", "140000000000 host-0", "240000000000 host-0");
    }

    @Test
    void theFaultsDrawsFailItsRate() {
        // The same scenario with consecutive 5xx not enforced keeps host-0 in rotation for all 21,000 of its
        // requests during the fault: its share is the generator's.
        CliRunner.Outcome kept = CliRunner.run(run("--set", "outlier_detection.enforcing_consecutive_5xx=0"));
        assertThat(kept.out()).contains("host-0: 6,982 of its 21,000 requests during a fault failed (33.25 %)");
        // Ejected after each run of five, host-0 takes only 852 requests, and each stretch in rotation ends with
        // five failures: its share is 36.5 %, the selection, not the generator.
        CliRunner.Outcome ejected = CliRunner.run(run());
        assertThat(ejected.out()).contains("host-0: 311 of its 852 requests during a fault failed (36.50 %)");
        double share = 6_982 * 100.0 / 21_000;
        assertThat(share).isCloseTo(33.0, within(1.0));
    }

    @Test
    void burstsAreReadEchoedAndReportedInTheText() throws IOException {
        Path f = dir.resolve("bursts.yaml");
        Files.writeString(
                f,
                "faults:\n  - hosts: 1\n    start: 30s\n    end: 240s\n    error_rate: 33\n"
                        + "    pattern: bursts\n    burst_length: 2.5\n");
        CliRunner.Outcome r = CliRunner.run("run", f.toString(), "--format", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode fault = r.json().get("scenario").get("faults").get(0);
        assertThat(fault.get("pattern").asText()).isEqualTo("bursts");
        assertThat(fault.get("burst_length").decimalValue()).isEqualByComparingTo("2.5");
        assertThat(CliRunner.run("run", f.toString()).out()).contains("33 % fail in bursts of 2.5 on average with 503");
    }

    @Test
    void anUnknownPatternOrAMisplacedBurstLengthIsRejectedWithItsLine() throws IOException {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, "faults:\n  - hosts: 1\n    pattern: spiky\n");
        CliRunner.run("run", f.toString())
                .assertRejected(
                        "bad.yaml:3: faults[0].pattern: \"spiky\" is not allowed; expected one of random (the default), even, bursts");
        Files.writeString(f, "faults:\n  - hosts: 1\n    pattern: random\n    burst_length: 3\n");
        CliRunner.run("run", f.toString())
                .assertRejected(
                        "bad.yaml:4: faults[0].burst_length: 3 is not allowed",
                        "unless pattern is bursts (it is random)");
        Files.writeString(f, "faults:\n  - hosts: 1\n    error_rate: 90\n    pattern: bursts\n    burst_length: 2\n");
        CliRunner.run("run", f.toString())
                .assertRejected("bad.yaml:5: faults[0].burst_length: 2 is not allowed", "from 9 to 1000000");
    }
}
