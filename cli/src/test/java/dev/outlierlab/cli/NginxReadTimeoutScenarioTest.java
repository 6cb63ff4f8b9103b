package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code proxy_read_timeout} of the user's nginx.conf goes with the upstream into the lab scenario {@code tune}
 * ran ({@code lab_scenario}), and {@code run} of a {@code profile: nginx} scenario waits it for a timed-out attempt:
 * running that scenario gives the figures tune scored, slow requests included.
 */
class NginxReadTimeoutScenarioTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static final String CONF = "events { worker_connections 64; }\nhttp {\n"
            + "    upstream api {\n        server 10.0.0.1:8080;\n        server 10.0.0.2:8080;\n"
            + "        server 10.0.0.3:8080;\n    }\n"
            + "    server {\n        listen 127.0.0.1:8080;\n        location / {\n            proxy_pass http://api;\n"
            + "            proxy_read_timeout 7s;\n        }\n    }\n}\n";

    @Test
    void tunesLabScenarioCarriesTheFilesReadTimeoutAndRunWaitsIt() throws Exception {
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, CONF);
        CliRunner.Outcome tune = CliRunner.run(
                "tune",
                "--target",
                "nginx",
                "--from",
                conf.toString(),
                "--seeds",
                "1",
                "--rps",
                "60",
                "--format",
                "json");
        assertThat(tune.exit()).as(tune.err()).isZero();
        JsonNode rec = tune.json().get("recommended");
        ObjectNode lab = (ObjectNode) rec.get("lab_scenario");
        assertThat(lab.get("nginx").get("proxy_read_timeout").asText()).isEqualTo("7s");

        // run of the lab scenario gives the figures tune scored for that scenario on its first seed
        Path labFile = dir.resolve("lab.yaml");
        Files.writeString(labFile, lab.toString());
        CliRunner.Outcome run = CliRunner.run("run", labFile.toString(), "--format", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        JsonNode summary = JSON.readTree(run.out()).get("summary");
        JsonNode scored = scenario(rec, lab.get("name").asText()).get("seeds").get(0);
        assertThat(summary.get("requests").asLong())
                .isEqualTo(scored.get("requests").asLong());
        assertThat(summary.get("client_errors").asLong())
                .isEqualTo(scored.get("failed").asLong());
        assertThat(summary.path("slow_requests").asLong(0))
                .isEqualTo(scored.path("slow").asLong(0));

        // the same scenario with the first server timing out: each slow request waited one timed-out attempt, 7 s
        String first = lab.get("nginx").get("servers").get(0).asText();
        lab.set(
                "faults",
                JSON.readTree("[{\"hosts\": [\"" + first + "\"], \"start\": \"0s\", \"end\": \""
                        + lab.get("duration").asText() + "\", \"error_rate\": 100, \"result\": \"timeout\"}]"));
        Files.writeString(labFile, lab.toString());
        JsonNode timedOut = runSummary(labFile);
        long slow = timedOut.get("slow_requests").asLong();
        assertThat(slow).isGreaterThan(10);
        assertThat(timedOut.get("slow_wait_ms").asLong()).isEqualTo(slow * 7_000);

        // without the key, nginx's default 60 s
        ((ObjectNode) lab.get("nginx")).remove("proxy_read_timeout");
        Files.writeString(labFile, lab.toString());
        JsonNode byDefault = runSummary(labFile);
        assertThat(byDefault.get("slow_requests").asLong()).isEqualTo(slow);
        assertThat(byDefault.get("slow_wait_ms").asLong()).isEqualTo(slow * 60_000);
    }

    @Test
    void aBadReadTimeoutIsOneMessage() {
        CliRunner.run(
                        "run",
                        "../docs/examples/server-scenarios/nginx-scenario.yaml",
                        "--set",
                        "nginx.proxy_read_timeout=soon")
                .assertRejected("nginx.proxy_read_timeout", "soon");
        CliRunner.run(
                        "run",
                        "../docs/examples/server-scenarios/nginx-scenario.yaml",
                        "--set",
                        "nginx.proxy_read_timeout=600h")
                .assertRejected("nginx.proxy_read_timeout", "up to 2147483647ms");
    }

    private JsonNode runSummary(Path file) throws Exception {
        CliRunner.Outcome run = CliRunner.run("run", file.toString(), "--format", "json");
        assertThat(run.exit()).as(run.err()).isZero();
        return JSON.readTree(run.out()).get("summary");
    }

    private static JsonNode scenario(JsonNode evaluation, String name) {
        for (JsonNode s : evaluation.get("scenarios")) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no scenario " + name + " in " + evaluation.get("scenarios"));
    }
}
