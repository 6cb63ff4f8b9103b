package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tune --from Caddyfile}: the reverse_proxy's passive checks searched and written back. */
class TuneCaddyCommandTest {
    private static final String CADDYFILE = """
            127.0.0.1:9000 {
            \t# the api
            \treverse_proxy 127.0.0.1:9001 127.0.0.1:9002 127.0.0.1:9003 {
            \t\tlb_policy round_robin
            \t\tfail_duration 10s
            \t\tmax_fails 3
            \t\tunhealthy_status 503
            \t}
            }
            """;

    @TempDir
    Path dir;

    /**
     * {@code tune --from file} (1 seed, 100 rps): the recommended file, written back in place, whose label names the
     * values the written file has and differs from the current one.
     */
    private static String tunedFile(Path file, String name) {
        CliRunner.Outcome o =
                CliRunner.run("tune", "--from", file.toString(), "--seeds", "1", "--rps", "100", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode rec = o.json().get("recommended");
        String written = rec.get("file").asText();
        assertThat(rec.get("spliced").asBoolean()).isTrue();
        CaddyPassiveConfig c = CaddyConfigReader.readText(written, name).config();
        assertThat(rec.get("label").asText())
                .isEqualTo("max_fails " + c.maxFails() + " fail_duration " + Durations.format(c.failDurationNanos())
                        + (c.unhealthyStatus().contains(5) ? " +5xx" : " -5xx"))
                .isNotEqualTo(o.json().get("current").get("label").asText());
        return written;
    }

    @Test
    void writesBackOnlyThePassiveSubdirectivesAndCaddyAcceptsTheFile() throws Exception {
        Path file = dir.resolve("Caddyfile");
        Files.writeString(file, CADDYFILE);
        String written = tunedFile(file, "Caddyfile");

        // a line diff touches only fail_duration, max_fails and unhealthy_status inside the block
        List<String> before = List.of(CADDYFILE.split("\n", -1));
        List<String> after = List.of(written.split("\n", -1));
        List<String> added = new ArrayList<>(after);
        added.removeAll(before);
        List<String> removed = new ArrayList<>(before);
        removed.removeAll(after);
        assertThat(added).isNotEmpty().allMatch(l -> l.matches("\t\t(fail_duration|max_fails|unhealthy_status) .+"));
        assertThat(removed).allMatch(l -> l.matches("\t\t(fail_duration|max_fails|unhealthy_status) .+"));
        assertThat(written).contains("\t# the api\n").contains("\t\tlb_policy round_robin\n");

        assumeTrue(new File("/usr/bin/caddy").canExecute(), "caddy is not installed at /usr/bin/caddy");
        Path out = dir.resolve("Caddyfile.recommended");
        Files.writeString(out, written);
        ProcessBuilder pb = new ProcessBuilder(
                        "/usr/bin/caddy", "validate", "--adapter", "caddyfile", "--config", out.toString())
                .redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        pb.environment().put("XDG_DATA_HOME", dir.toString());
        pb.environment().put("XDG_CONFIG_HOME", dir.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(said).contains("Valid configuration");
    }

    private static final String CADDY_JSON = """
            {
              "apps": {"http": {"servers": {"api": {
                "listen": ["127.0.0.1:9000"],
                "routes": [{"handle": [{
                  "handler": "reverse_proxy",
                  "upstreams": [{"dial": "127.0.0.1:9001"}, {"dial": "127.0.0.1:9002"}, {"dial": "127.0.0.1:9003"}],
                  "load_balancing": {"selection_policy": {"policy": "round_robin"}},
                  "health_checks": {"passive": {"fail_duration": "10s", "max_fails": 3, "unhealthy_status": [503]}}
                }]}]
              }}}}
            }
            """;

    @Test
    void caddysJsonIsWrittenBackInPlaceWithOnlyThePassiveFieldsChanged() throws Exception {
        Path file = dir.resolve("caddy.json");
        Files.writeString(file, CADDY_JSON);
        String written = tunedFile(file, "caddy.json");

        // the two documents are equal but for health_checks.passive, whose other fields stay too
        ObjectMapper json = new ObjectMapper();
        JsonNode before = json.readTree(CADDY_JSON);
        JsonNode after = json.readTree(written);
        String passive = "/apps/http/servers/api/routes/0/handle/0/health_checks";
        assertThat(after.at(passive + "/passive")).isNotEqualTo(before.at(passive + "/passive"));
        ((ObjectNode) before.at(passive)).remove("passive");
        ((ObjectNode) after.at(passive)).remove("passive");
        assertThat(after).isEqualTo(before);
        assertThat(written.lines().filter(l -> !CADDY_JSON.contains(l + "\n")).toList())
                .singleElement()
                .asString()
                .contains("\"health_checks\": {\"passive\"");

        assumeTrue(new File("/usr/bin/caddy").canExecute(), "caddy is not installed at /usr/bin/caddy");
        Path out = dir.resolve("caddy.recommended.json");
        Files.writeString(out, written);
        ProcessBuilder pb =
                new ProcessBuilder("/usr/bin/caddy", "validate", "--config", out.toString()).redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        pb.environment().put("XDG_DATA_HOME", dir.toString());
        pb.environment().put("XDG_CONFIG_HOME", dir.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(said).contains("Valid configuration");
    }
}
