package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} on a server's own configuration: nginx.conf, haproxy.cfg, a Caddyfile and Caddy's JSON. */
class ProxyConfigCheckCommandTest {
    private static JsonNode finding(CliRunner.Outcome o, String id) {
        for (JsonNode f : o.json().get("findings")) {
            if (f.get("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no " + id + " in " + o.out());
    }

    @Test
    void anNginxUpstreamWithoutHttp503InProxyNextUpstreamIsAWarningAtTheLocationsLine(@TempDir Path dir)
            throws IOException {
        Path conf = dir.resolve("site.conf");
        Files.writeString(conf, """
                worker_processes 1;
                http {
                    upstream api {
                        zone api 64k;
                        server 10.0.0.1:8080;
                        server 10.0.0.2:8080;
                    }
                    server {
                        location / {
                            proxy_pass http://api;
                            proxy_next_upstream error timeout http_502;
                        }
                    }
                }
                """);
        CliRunner.Outcome json = CliRunner.run("check", conf.toString(), "--format", "json");
        assertThat(json.exit()).as(json.err()).isZero(); // a warning; --fail-on warning makes it fail
        assertThat(CliRunner.run("check", conf.toString(), "--fail-on", "warning")
                        .exit())
                .isEqualTo(1);
        JsonNode f = finding(json, "nginx-5xx-not-counted");
        assertThat(f.get("line").asInt()).isEqualTo(11);
        assertThat(f.get("message").asText()).contains("http_500, http_503, http_504");
        CliRunner.Outcome text = CliRunner.run("check", conf.toString());
        assertThat(text.exit()).isZero();
        assertThat(text.out())
                .startsWith("outlier-lab check " + conf + ": 1 proxy configuration\n")
                .contains("upstream api  " + conf + "\n")
                .contains("nginx-5xx-not-counted (line 11)");
        CliRunner.Outcome sarif = CliRunner.run("check", conf.toString(), "--format", "sarif");
        assertThat(sarif.exit()).isZero();
        assertThat(sarif.out())
                .contains("\"ruleId\" : \"nginx-5xx-not-counted\"")
                .contains("\"startLine\" : 11");
    }

    @Test
    void aHaproxyServerThatObservesWithoutCheckIsAnErrorAtItsServerLine(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, """
                defaults
                  mode http
                  timeout connect 5s
                backend be
                  option httpchk GET /health
                  server a 10.0.0.1:80 observe layer7 error-limit 2 on-error mark-down
                  server b 10.0.0.2:80 check observe layer7 error-limit 3 on-error mark-down
                """);
        CliRunner.Outcome o = CliRunner.run("check", cfg.toString(), "--format", "json");
        assertThat(o.exit()).as(o.err()).isEqualTo(1);
        JsonNode f = finding(o, "haproxy-observe-without-check");
        assertThat(f.get("line").asInt()).isEqualTo(6);
        assertThat(finding(o, "haproxy-flaps").get("line").asInt()).isEqualTo(7);
    }

    @Test
    void aCaddyfileAndCaddysJsonWithout5xxCountedAreWarnings(@TempDir Path dir) throws IOException {
        Path caddyfile = dir.resolve("Caddyfile");
        Files.writeString(caddyfile, """
                example.com {
                	encode gzip
                	reverse_proxy 10.0.0.1:80 10.0.0.2:80 {
                		fail_duration 10s
                		max_fails 3
                	}
                }
                """);
        CliRunner.Outcome o = CliRunner.run("check", caddyfile.toString(), "--format", "json", "--fail-on", "warning");
        assertThat(o.exit()).as(o.err()).isEqualTo(1);
        assertThat(finding(o, "caddy-5xx-not-counted").get("line").asInt()).isEqualTo(3);
        assertThat(finding(o, "caddy-dial-errors-reach-clients").get("message").asText())
                .contains("a dead upstream takes 3 requests every 10s");

        Path json = dir.resolve("caddy.json");
        Files.writeString(json, """
                {"apps": {"http": {"servers": {"srv0": {"listen": [":80"], "routes": [{"handle": [
                  {"handler": "reverse_proxy", "upstreams": [{"dial": "10.0.0.1:80"}, {"dial": "10.0.0.2:80"}],
                   "health_checks": {"passive": {"fail_duration": "10s", "max_fails": 3}}}]}]}}}}}
                """);
        CliRunner.Outcome j = CliRunner.run("check", json.toString(), "--format", "json");
        assertThat(j.exit()).as(j.err()).isZero();
        assertThat(finding(j, "caddy-5xx-not-counted").get("fix").asText()).isEqualTo("\"unhealthy_status\": [5]");
    }
}
