package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code profile: nginx|haproxy|caddy} scenarios, and {@code --nginx}, {@code --haproxy}, {@code --caddy} files, through
 * {@code run} (text and JSON), {@code sweep} and {@code export}.
 */
class ServerProfileScenarioTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Two servers at 10 requests a second for a minute, the first answering 503 to everything. */
    private static final String LAB = """
            name: two-servers
            duration: 60s
            seed: 7
            cluster: {hosts: 2}
            traffic: {rps: 10}
            faults: [{hosts: [host-0], start: 0s, end: 60s, error_rate: 100, status: 503}]
            """;

    private static final String NGINX_CONF = """
            worker_processes 1;
            events {}
            http {
                upstream api {
                    server 10.0.0.1:8080;
                    server 10.0.0.2:8080;
                }
                server { listen 8080; location / { proxy_pass http://api;%s } }
            }
            """;

    @Test
    void aBackupServerTakesTheRequestsOfItsOnlyServerOnceThatIsOut(@TempDir Path dir) throws IOException {
        Path scenario = dir.resolve("backup.yaml");
        Files.writeString(scenario, LAB + """
                profile: nginx
                nginx:
                  servers: [10.0.0.1:8080, {address: 10.0.0.2:8080, backup: true}]
                  proxy_next_upstream: [error, timeout, http_503]
                """);
        CliRunner.Outcome run = CliRunner.run("run", scenario.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        // one server and a backup is not nginx's one-server case: out at 0 s, probed every 11 s, the backup answers
        assertThat(run.out())
                .contains("upstream backend, 2 servers (backup: 10.0.0.2:8080), 1 counting worker")
                .contains("requests 600, client 5xx 0 (0.00 %), no live upstreams (502) 0")
                .containsPattern("10.0.0.1:8080 +6 +6\n")
                .containsPattern("10.0.0.2:8080 +600 +0\n");

        Path alone = dir.resolve("alone.yaml");
        Files.writeString(alone, LAB.replace("hosts: 2", "hosts: 1") + """
                profile: nginx
                nginx: {servers: [10.0.0.1:8080], proxy_next_upstream: [error, timeout, http_503]}
                """);
        CliRunner.Outcome single = CliRunner.run("run", alone.toString());
        assertThat(single.exit()).as(single.err()).isZero();
        assertThat(single.out())
                .contains("requests 600, client 5xx 600 (100.00 %)")
                .containsPattern("10.0.0.1:8080 +600 +0\n");
    }

    @Test
    void nginxScenarioBlockRunsAsTheSameUpstreamReadFromAFile(@TempDir Path dir) throws IOException {
        Path scenario = dir.resolve("nginx.yaml");
        Files.writeString(scenario, LAB + """
                profile: nginx
                nginx: {servers: [10.0.0.1:8080, 10.0.0.2:8080], proxy_next_upstream: [error, timeout, http_503]}
                """);
        CliRunner.Outcome fromScenario = CliRunner.run("run", scenario.toString());
        assertThat(fromScenario.exit()).as(fromScenario.err()).isZero();
        // out at 0 s, one probe every fail_timeout + 1 s: 6 ejections and 6 attempts, and no client sees a 503
        assertThat(fromScenario.out())
                .contains("outlier-lab run: upstream backend, 2 servers, 1 counting worker, proxy_next_upstream "
                        + "error timeout http_503")
                .contains("requests 600, client 5xx 0 (0.00 %)")
                .containsPattern("10.0.0.1:8080 +6 +6\n")
                .contains("11.000s  uneject  10.0.0.1:8080  fail_timeout  worker 0");

        Path lab = dir.resolve("lab.yaml");
        Files.writeString(lab, LAB);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, NGINX_CONF.formatted(" proxy_next_upstream error timeout http_503;"));
        CliRunner.Outcome json = CliRunner.run("run", lab.toString(), "--nginx", conf.toString(), "--format", "json");
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode root = JSON.readTree(json.out());
        assertThat(root.get("profile").asText()).isEqualTo("nginx");
        assertThat(root.get("scenario").get("nginx").get("upstream").asText()).isEqualTo("api");
        assertThat(root.get("summary").get("requests").asLong()).isEqualTo(600);
        assertThat(root.get("summary").get("client_errors").asLong()).isZero();
        assertThat(root.get("summary").get("ejections").asLong()).isEqualTo(6);
        JsonNode first = root.get("events").get(0);
        assertThat(first.get("action").asText()).isEqualTo("eject");
        assertThat(first.get("host").asText()).isEqualTo("10.0.0.1:8080");
        assertThat(first.get("reason").asText()).isEqualTo("max_fails");
        assertThat(first.get("probe_at_ns").asLong()).isEqualTo(11_000_000_000L);
        JsonNode back = root.get("events").get(1);
        assertThat(back.get("action").asText()).isEqualTo("uneject");
        assertThat(back.get("reason").asText()).isEqualTo("fail_timeout");
        assertThat(back.get("time_ns").asLong()).isEqualTo(11_000_000_000L);
        // the same bytes twice
        assertThat(CliRunner.run("run", lab.toString(), "--nginx", conf.toString(), "--format", "json")
                        .out())
                .isEqualTo(json.out());
    }

    @Test
    void sweepVariesTheFilesOwnDirectivesByName(@TempDir Path dir) throws IOException {
        Path lab = dir.resolve("lab.yaml");
        Files.writeString(lab, LAB);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, NGINX_CONF.formatted(" proxy_next_upstream error timeout http_503;"));
        CliRunner.Outcome o = CliRunner.run(
                "sweep",
                lab.toString(),
                "--nginx",
                conf.toString(),
                "--vary",
                "max_fails=1,3",
                "--vary",
                "nginx.fail_timeout=10s,30s");
        assertThat(o.exit()).as(o.err()).isZero();
        // a server failing everything: out at its max_fails-th 503, probed once every fail_timeout + 1 s
        assertThat(o.out().lines().toList())
                .containsExactly(
                        "max_fails  nginx.fail_timeout  ejections  client 5xx  client 5xx %  none left",
                        "1          10s                         6           0          0.00          0",
                        "1          30s                         2           0          0.00          0",
                        "3          10s                         6           0          0.00          0",
                        "3          30s                         2           0          0.00          0");
    }

    @Test
    void exportWritesTheFileAsAScenarioThatRunsTheSame(@TempDir Path dir) throws IOException {
        Path lab = dir.resolve("lab.yaml");
        Files.writeString(lab, LAB);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, NGINX_CONF.formatted(" proxy_next_upstream error timeout http_503;"));
        CliRunner.Outcome exported =
                CliRunner.run("export", lab.toString(), "--nginx", conf.toString(), "--to", "scenario");
        assertThat(exported.exit()).as(exported.err()).isZero();
        JsonNode doc = JSON.readTree(exported.out());
        assertThat(doc.get("profile").asText()).isEqualTo("nginx");
        assertThat(doc.get("nginx").get("proxy_next_upstream").toString())
                .isEqualTo("[\"error\",\"timeout\",\"http_503\"]");
        Path scenario = dir.resolve("exported.json");
        Files.writeString(scenario, exported.out());
        String again =
                CliRunner.run("run", scenario.toString(), "--format", "json").out();
        String direct = CliRunner.run("run", lab.toString(), "--nginx", conf.toString(), "--format", "json")
                .out();
        assertThat(JSON.readTree(again).get("events"))
                .isEqualTo(JSON.readTree(direct).get("events"));
        assertThat(JSON.readTree(again).get("summary"))
                .isEqualTo(JSON.readTree(direct).get("summary"));
    }

    @Test
    void haproxyAndCaddyScenarios(@TempDir Path dir) throws IOException {
        Path haproxy = dir.resolve("haproxy.yaml");
        Files.writeString(haproxy, LAB + """
                profile: haproxy
                haproxy: {check: true, observe: layer7, error_limit: 5, on_error: mark-down}
                """);
        CliRunner.Outcome h = CliRunner.run("run", haproxy.toString(), "--format", "json");
        assertThat(h.exit()).as(h.err()).isZero();
        JsonNode hr = JSON.readTree(h.out());
        assertThat(hr.get("servers").get(0).get("host").asText()).isEqualTo("host-0");
        JsonNode down = hr.get("events").get(0);
        assertThat(down.get("action").asText()).isEqualTo("eject");
        assertThat(down.get("reason").asText()).isEqualTo("observe");
        // five 503s in a row at 5 a second on host-0: DOWN at 0.8 s
        assertThat(down.get("time_ns").asLong()).isEqualTo(800_000_000L);
        assertThat(hr.get("events").get(1).get("reason").asText()).isEqualTo("check_passed");

        Path caddy = dir.resolve("caddy.yaml");
        Files.writeString(caddy, LAB + """
                profile: caddy
                caddy: {fail_duration: 10s, max_fails: 3, unhealthy_status: [5xx]}
                """);
        CliRunner.Outcome c = CliRunner.run("run", caddy.toString());
        assertThat(c.exit()).as(c.err()).isZero();
        assertThat(c.out())
                .contains("outlier-lab run: reverse_proxy, 2 upstreams")
                .contains("eject  host-0  max_fails");
        CliRunner.run("run", caddy.toString(), "--set", "caddy.lb_policy=fastest")
                .assertRejected("caddy.lb_policy: \"fastest\" is not allowed; expected random, first or round_robin");
        CliRunner.run("run", caddy.toString(), "--stats", "text").assertRejected("--stats (envoy)");
    }

    @Test
    void traceInReplaysOutcomesOnTheServers(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("outcomes.jsonl");
        Files.writeString(trace, """
                {"time": 1.0, "host": "10.0.0.1:8080", "code": 503}
                {"time": 1.5, "host": "10.0.0.2:8080", "code": 200}
                {"time": 2.0, "host": "10.0.0.1:8080", "result": "connect_failed"}
                {"time": 14.0, "host": "10.0.0.1:8080", "code": 200}
                """);
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, NGINX_CONF.formatted(" proxy_next_upstream error timeout http_503;"));
        CliRunner.Outcome o = CliRunner.run("run", "--nginx", conf.toString(), "--trace-in", trace.toString());
        assertThat(o.exit()).as(o.err()).isZero();
        // out at the 503 (1 s); the refused attempt at 2 s (the probe of another worker, say) counts too, so the
        // return is at the start of second 2 + fail_timeout + 1
        assertThat(o.out())
                .contains("(replayed from " + trace + ")")
                .contains("requests 4, client 5xx 2 (50.00 %)")
                .contains("     1.000s  eject  10.0.0.1:8080  max_fails  worker 0\n"
                        + "    13.000s  uneject  10.0.0.1:8080  fail_timeout  worker 0\n")
                .doesNotContain("fault:");
        Path caddyfile = dir.resolve("Caddyfile");
        Files.writeString(caddyfile, """
                :8080 {
                	reverse_proxy 10.0.0.1:8080 10.0.0.2:8080 {
                		fail_duration 10s
                		unhealthy_status 5xx
                	}
                }
                """);
        JsonNode caddy = JSON.readTree(CliRunner.run(
                        "run", "--caddy", caddyfile.toString(), "--trace-in", trace.toString(), "--format", "json")
                .out());
        // each failure is forgotten exactly fail_duration after it: out at 1 s, 2 remembered at 2 s, back at 12 s
        assertThat(caddy.get("events").toString())
                .isEqualTo(
                        "[{\"time\":\"1s\",\"time_ns\":1000000000,\"action\":\"eject\",\"host\":\"10.0.0.1:8080\","
                                + "\"reason\":\"max_fails\",\"fails\":1},{\"time\":\"12s\",\"time_ns\":12000000000,"
                                + "\"action\":\"uneject\",\"host\":\"10.0.0.1:8080\",\"reason\":\"fail_duration\",\"fails\":0}]");
        CliRunner.run(
                        "run",
                        "--caddy",
                        caddyfile.toString(),
                        "--trace-in",
                        dir.resolve("none.jsonl").toString())
                .assertRejected("none.jsonl");
    }
}
