package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code detect_degraded_hosts} end to end with the shipped example {@code docs/examples/degraded-hosts.yaml}: three
 * of six hosts answer 200 with {@code x-envoy-degraded} from 30 s to 90 s. Envoy's {@code setHostDegradedMainThread}
 * marks each at its first such answer and logs {@code logEject(host, DEGRADED, true)}; {@code checkHostForUndegrade}
 * clears it after 30 s x its backoff and logs {@code logUneject(host)}; nothing fails, nothing is ejected.
 */
class DegradedHostsCommandTest {
    private static final String EXAMPLE =
            Path.of("..", "docs", "examples", "degraded-hosts.yaml").toString();

    @TempDir
    Path dir;

    @Test
    void theExampleMarksAndClearsThreeHostsSixTimesWithoutAFailure() throws IOException {
        CliRunner.Outcome r = CliRunner.run("run", EXAMPLE, "--format", "json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.json().get("stats").get("ejections_detected_degradation").asLong())
                .isEqualTo(6);
        assertThat(r.json().get("stats").get("ejections_active").asLong()).isZero();
        assertThat(r.json().get("summary").get("failed").asLong()).isZero();
        assertThat(r.json().get("scenario").get("faults").get(0).get("kind").asText())
                .isEqualTo("degraded");
        assertThat(r.json().get("degradations")).hasSize(12);

        Path log = dir.resolve("events.jsonl");
        assertThat(CliRunner.run("run", EXAMPLE, "--event-log", log.toString()).exit())
                .isZero();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(12);
        assertThat(lines.get(0))
                .isEqualTo("{\"type\":\"DEGRADED\",\"timestamp\":\"1970-01-01T00:00:30Z\","
                        + "\"cluster_name\":\"degraded-hosts\",\"upstream_url\":\"host-0\",\"action\":\"EJECT\","
                        + "\"num_ejections\":0,\"enforced\":true,\"eject_consecutive_event\":{}}");
        assertThat(lines.get(3))
                .isEqualTo("{\"type\":\"CONSECUTIVE_5XX\",\"timestamp\":\"1970-01-01T00:01:00Z\","
                        + "\"cluster_name\":\"degraded-hosts\",\"upstream_url\":\"host-0\",\"action\":\"UNEJECT\","
                        + "\"num_ejections\":0,\"enforced\":false}");
        assertThat(lines.stream().filter(l -> l.contains("\"DEGRADED\"")).count())
                .isEqualTo(6);
    }

    @Test
    void aDegradedFaultTakesNoStatusResultOrHealthCheckFailure() throws IOException {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, """
                outlier_detection:
                  detect_degraded_hosts: true
                faults:
                  - kind: degraded
                    status: 503
                """);
        CliRunner.run("run", f.toString()).assertRejected("faults[0].status", "kind: degraded");
        Files.writeString(f, """
                faults:
                  - kind: sluggish
                """);
        CliRunner.run("run", f.toString()).assertRejected("faults[0].kind", "degraded");
        // without detect_degraded_hosts the header is read by nothing: no mark, an even spread
        Files.writeString(f, """
                duration: 60s
                faults:
                  - kind: degraded
                    hosts: 3
                    start: 30s
                """);
        CliRunner.Outcome off = CliRunner.run("run", f.toString(), "--format", "json");
        assertThat(off.json().get("stats").get("ejections_detected_degradation").asLong())
                .isZero();
        assertThat(off.json().has("degradations")).isFalse();
        assertThat(CliRunner.run("run", f.toString()).out())
                .contains("verdict       no ejection: the faults only answer with x-envoy-degraded, which only "
                        + "detect_degraded_hosts reads (Envoy 1.38)");
    }
}
