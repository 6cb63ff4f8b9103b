package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    @TempDir
    Path dir;

    @Test
    void sameScenarioTwiceGivesByteIdenticalJson() {
        String[] args = {
            "run",
            "--format",
            "json",
            "--set",
            "outlier_detection.max_ejection_percent=50",
            "--set",
            "outlier_detection.enforcing_consecutive_5xx=50",
            "--set",
            "outlier_detection.max_ejection_time_jitter=2000ms",
            "--set",
            "faults[0].error_rate=100",
            "--set",
            "faults[0].hosts=2"
        };
        CliRunner.Outcome a = CliRunner.run(args);
        CliRunner.Outcome b = CliRunner.run(args);
        assertThat(a.exit()).isZero();
        assertThat(a.out()).isEqualTo(b.out());
        // the seeded draws are really in play: some offers were not enforced, and jitter was drawn
        assertThat(a.json().get("summary").get("ejections_unenforced").asLong()).isPositive();
        assertThat(a.out()).contains("\"enforcing_draw\"");
    }

    @Test
    void jsonHasTheContractsTopLevelShapeAndTheScenarioAsRun() {
        JsonNode j = CliRunner.run("run", "--format", "json").json();
        assertThat(j.fieldNames()).toIterable().containsExactly("schema", "scenario", "summary", "stats", "events");
        assertThat(j.get("scenario")
                        .get("outlier_detection")
                        .get("max_ejection_time")
                        .asText())
                .isEqualTo("300s");
        assertThat(j.get("scenario").get("cluster").get("hosts").asInt()).isEqualTo(6);
        assertThat(j.get("events").get(0).get("time").asDouble()).isEqualTo(40.0);
        assertThat(j.get("events").get(0).get("time_ns").asLong()).isEqualTo(40_000_000_000L);
        assertThat(j.get("stats").get("ejections_active").asLong()).isZero();
    }

    @Test
    void theScenarioPrintedInJsonRunsAgainToTheSameResult() throws IOException {
        CliRunner.Outcome first = CliRunner.run(
                "run",
                "--format",
                "json",
                "--set",
                "cluster.hosts=[a, b, c, d, e, f]",
                "--set",
                "faults[0].hosts=[c]",
                "--set",
                "outlier_detection.max_ejection_percent=34");
        Path scenario = dir.resolve("again.json");
        Files.writeString(scenario, first.json().get("scenario").toString());
        CliRunner.Outcome again = CliRunner.run("run", scenario.toString(), "--format", "json");
        assertThat(again.out()).isEqualTo(first.out());
        assertThat(again.events("eject")).first().isEqualTo("40000000000 c SUCCESS_RATE");
    }

    @Test
    void textOutputReadsLikeTheLab() {
        CliRunner.Outcome o = CliRunner.run("run", "--set", "outlier_detection.max_ejection_percent=34");
        assertThat(o.exit()).isZero();
        assertThat(o.out())
                .contains(
                        "max_ejection_percent 34*",
                        "ejections     3",
                        "990 of 126,000 requests sent during a fault (0.79 %)",
                        "cap (0+1)/6 = 16.7 % <= 34 % -> ejected for 30 s, multiplier 1",
                        "returned to rotation after 60 s out");
    }

    @Test
    void traceTakesItsHostsWhenTheScenarioNamesNone() throws IOException {
        Path trace = dir.resolve("t.jsonl");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            sb.append("{\"time\": ").append(1 + i * 0.1).append(", \"host\": \"10.0.0.7:80\", \"code\": 503}\n");
        }
        sb.append("{\"time_ns\": 1500000000, \"host\": \"10.0.0.8:80\", \"result\": \"timeout\"}\n");
        Files.writeString(trace, sb.toString());
        CliRunner.Outcome o = CliRunner.run(
                "run",
                "--trace-in",
                trace.toString(),
                "--format",
                "json",
                "--set",
                "duration=60s",
                "--set",
                "outlier_detection.max_ejection_percent=50");
        assertThat(o.exit()).as(o.err()).isZero();
        // fifth consecutive 5xx at 1.4 s ejects; returned at the first tick at least 30 s later: 40 s
        assertThat(o.events("eject")).containsExactly("1400000000 10.0.0.7:80 CONSECUTIVE_5XX");
        assertThat(o.events("uneject")).containsExactly("40000000000 10.0.0.7:80");
        assertThat(o.json().get("summary").get("requests").asLong()).isEqualTo(6);
        assertThat(o.json().get("summary").get("failed").asLong()).isEqualTo(6);
    }

    @Test
    void helpExplainsEveryOption() {
        CliRunner.Outcome o = CliRunner.run("run", "--help");
        assertThat(o.exit()).isZero();
        assertThat(o.out())
                .contains(
                        "--set=KEY=VALUE",
                        "--format=FORMAT",
                        "--trace-in=FILE",
                        "--events=N",
                        "Examples:",
                        "max_ejection_percent=34");
    }
}
