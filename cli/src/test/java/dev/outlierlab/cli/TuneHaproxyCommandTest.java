package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tune --from haproxy.cfg}: the backend's observe / error-limit / on-error searched and written back. */
class TuneHaproxyCommandTest {
    private static final String CFG = """
            defaults
                mode http
                timeout connect 5s
                timeout client 30s
                timeout server 30s

            frontend fe
                bind 127.0.0.1:9000
                default_backend api

            backend api
                option httpchk GET /health
                server a 127.0.0.1:9001 check inter 2s   # primary
                server b 127.0.0.1:9002 check
                server c 127.0.0.1:9003 check

            backend static
                server s1 127.0.0.1:9101 check observe layer4
            """;

    @TempDir
    Path dir;

    @Test
    void writesBackOnlyTheServerLinesParametersAndHaproxyAcceptsTheFile() throws Exception {
        Path file = dir.resolve("haproxy.cfg");
        Files.writeString(file, CFG);
        CliRunner.Outcome o = CliRunner.run(
                "tune",
                "--from",
                file.toString(),
                "--backend",
                "api",
                "--seeds",
                "1",
                "--rps",
                "100",
                "--format",
                "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode rec = o.json().get("recommended");
        String written = rec.get("file").asText();
        assertThat(rec.get("spliced").asBoolean()).isTrue();
        List<HaproxyServer> api =
                HaproxyConfigReader.readText(written, "haproxy.cfg", "api").servers();
        HaproxyServer first = api.get(0);
        assertThat(rec.get("label").asText())
                .isEqualTo(
                        first.observe() == Observe.NONE
                                ? "observe none"
                                : "observe layer7 error-limit " + first.errorLimit() + " on-error "
                                        + first.onError().word());
        assertThat(rec.get("label").asText())
                .isNotEqualTo(o.json().get("current").get("label").asText());
        assertThat(api).allMatch(s -> s.observe() == first.observe() && s.errorLimit() == first.errorLimit());
        assertThat(first.interNanos()).isEqualTo(2_000_000_000L);
        assertThat(HaproxyConfigReader.readText(written, "haproxy.cfg", "static")
                        .servers()
                        .get(0)
                        .observe())
                .isEqualTo(Observe.LAYER4);

        // a line diff touches only the api's three server lines, each keeping its other words and comment
        List<String> before = List.of(CFG.split("\n", -1));
        List<String> after = List.of(written.split("\n", -1));
        assertThat(after).hasSameSizeAs(before);
        List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < before.size(); i++) {
            if (!before.get(i).equals(after.get(i))) {
                changed.add(i);
                String kept = before.get(i).replace("   # primary", "");
                assertThat(after.get(i)).startsWith(kept);
            }
        }
        assertThat(changed).containsExactly(12, 13, 14);
        assertThat(after.get(12)).endsWith("   # primary");

        assumeTrue(new File("/usr/sbin/haproxy").canExecute(), "haproxy is not installed at /usr/sbin/haproxy");
        Path out = dir.resolve("recommended.cfg");
        Files.writeString(out, written);
        Process p = new ProcessBuilder("/usr/sbin/haproxy", "-c", "-f", out.toString())
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(said).isZero();
    }

    @Test
    void aWrongBackendIsOneMessage() throws Exception {
        Path file = dir.resolve("haproxy.cfg");
        Files.writeString(file, CFG);
        CliRunner.run("tune", "--from", file.toString(), "--backend", "nope", "--seeds", "1")
                .assertRejected("no backend \"nope\"", "api, static");
        CliRunner.run("tune", "--from", file.toString(), "--seeds", "1").assertRejected("--backend NAME");
    }
}
