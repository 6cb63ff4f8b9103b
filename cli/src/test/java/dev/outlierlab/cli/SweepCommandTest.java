package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class SweepCommandTest {
    @Test
    void theSmallestCapThatEjectsOneOfSixHostsIs17Percent() {
        CliRunner.Outcome o =
                CliRunner.run("sweep", "--vary", "outlier_detection.max_ejection_percent=16,17", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.json().get("schema").asText()).isEqualTo("outlier-lab.sweep.v1");
        JsonNode runs = o.json().get("runs");
        assertThat(runs).hasSize(2);
        // 100 * (0 + 1) / 6 = 16.67 %: refused at 16, admitted at 17
        assertThat(runs.get(0).get("summary").get("ejections_overflow").asLong())
                .isEqualTo(21);
        assertThat(runs.get(1).get("summary").get("ejections_enforced").asLong())
                .isEqualTo(3);
        assertThat(runs.get(1)
                        .get("set")
                        .get("outlier_detection.max_ejection_percent")
                        .asInt())
                .isEqualTo(17);
    }

    @Test
    void everyCombinationIsRunInOrderAndCsvHasAHeader() {
        CliRunner.Outcome o = CliRunner.run(
                "sweep",
                "--set",
                "outlier_detection.max_ejection_percent=34",
                "--set",
                "outlier_detection.enforcing_success_rate=0",
                "--vary",
                "faults[0].error_rate=80,100",
                "--vary",
                "cluster.hosts=6,10",
                "--format",
                "csv");
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out().lines()).hasSize(5);
        assertThat(o.out().lines().findFirst().orElseThrow())
                .startsWith("faults[0].error_rate,cluster.hosts,detected,ejected,cap_refused");
        // 80 % spread evenly never gives five failures in a row; 100 % does
        assertThat(o.out()).contains("\n80,6,21,0,0,21,").contains("\n100,10,");
    }

    @Test
    void badVaryIsAClearError() {
        CliRunner.Outcome o = CliRunner.run("sweep", "--vary", "cluster.hosts");
        assertThat(o.exit()).isEqualTo(2);
        assertThat(o.err()).contains("--vary cluster.hosts: expected KEY=V1,V2,...");
        CliRunner.Outcome bad = CliRunner.run("sweep", "--vary", "cluster.hosts=3,-1");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("cluster.hosts: -1 is not allowed");
        assertThat(bad.out()).isEmpty();
    }
}
