package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --nginx}, {@code --haproxy} and {@code --caddy}: the lab's traffic and faults on a real configuration. */
class ServerConfigRunCommandTest {
    private static final String[] FAULT = {
        "--set",
        "duration=60s",
        "--set",
        "traffic.rps=10",
        "--set",
        "faults[0].start=0s",
        "--set",
        "faults[0].end=60s",
        "--set",
        "faults[0].error_rate=100"
    };

    private static String[] args(String option, Path file, String... more) {
        String[] out = new String[3 + FAULT.length + more.length];
        out[0] = "run";
        out[1] = option;
        out[2] = file.toString();
        System.arraycopy(FAULT, 0, out, 3, FAULT.length);
        System.arraycopy(more, 0, out, 3 + FAULT.length, more.length);
        return out;
    }

    private static final String NGINX = """
            http {
                upstream api {
                    server 10.0.0.1:8080;
                    server 10.0.0.2:8080;
                    server 10.0.0.3:8080;
                }
                server { location / { proxy_pass http://api;%s } }
            }
            """;

    @Test
    void nginxWithoutHttp503NeverEjectsAndThe503sReachClientsWithItTheyAreRetried(@TempDir Path dir)
            throws IOException {
        Path conf = dir.resolve("nginx.conf");
        Files.writeString(conf, NGINX.formatted(""));
        CliRunner.Outcome o = CliRunner.run(args("--nginx", conf));
        assertThat(o.exit()).as(o.err()).isZero();
        // 600 requests, a third to the failing first server: every one of its 503s reaches a client
        assertThat(o.out()).contains("requests 600, client 5xx 200 (33.33 %)").contains("ejections and returns (0)");
        Files.writeString(conf, NGINX.formatted(" proxy_next_upstream error timeout http_503;"));
        CliRunner.Outcome listed = CliRunner.run(args("--nginx", conf, "--upstream", "api"));
        assertThat(listed.exit()).as(listed.err()).isZero();
        // listed: each 503 is retried on the next server and counted; out at 0 s, then one probe every fail_timeout + 1
        assertThat(listed.out())
                .contains("client 5xx 0 (0.00 %)")
                .contains("eject  10.0.0.1:8080  max_fails")
                .contains("11.000s  uneject  10.0.0.1:8080  fail_timeout")
                .containsPattern("10.0.0.1:8080 +6 +6\n");
    }

    @Test
    void haproxyObserveLayer7MarksTheServerDownAndItsChecksBringItBack(@TempDir Path dir) throws IOException {
        Path cfg = dir.resolve("haproxy.cfg");
        Files.writeString(cfg, """
                backend be
                  option httpchk GET /health
                  server a 10.0.0.1:80 check observe layer7 error-limit 5 on-error mark-down
                  server b 10.0.0.2:80 check observe layer7 error-limit 5 on-error mark-down
                """);
        CliRunner.Outcome o = CliRunner.run(args("--haproxy", cfg, "--backend", "be"));
        assertThat(o.exit()).as(o.err()).isZero();
        // 5 consecutive 503s take it DOWN, 2 passing checks (inter 2s) bring it back: 15 times in 60 s
        assertThat(o.out())
                .contains("0.800s  eject  10.0.0.1:80  observe")
                .contains("4.000s  uneject  10.0.0.1:80" + "  check_passed")
                .contains("error-limit trips 15")
                .contains("client 5xx 75 (12.50 %)");
        CliRunner.Outcome two = CliRunner.run(args("--haproxy", cfg, "--events", "2"));
        assertThat(two.out())
                .contains("ejections and returns (30):")
                .contains("  ... 28 more (raise --events)\n")
                .doesNotContain("4.800s");
    }

    @Test
    void caddyWithUnhealthyStatusTakesTheUpstreamOut(@TempDir Path dir) throws IOException {
        Path caddyfile = dir.resolve("Caddyfile");
        Files.writeString(caddyfile, """
                :80 {
                	reverse_proxy 10.0.0.1:80 10.0.0.2:80 {
                		fail_duration 10s
                		max_fails 3
                		unhealthy_status 5xx
                	}
                }
                """);
        CliRunner.Outcome o = CliRunner.run(args("--caddy", caddyfile));
        assertThat(o.exit()).as(o.err()).isZero();
        assertThat(o.out())
                .contains("0.800s  eject  10.0.0.1:80  max_fails reached")
                .contains("client 5xx 18 (3.00 %)");
    }

    @Test
    void whatTheFileSetsThatTheRunLeavesOutIsSaidInTextAndJson(@TempDir Path dir) throws IOException {
        Path caddyfile = dir.resolve("Caddyfile");
        Files.writeString(caddyfile, """
                :80 {
                	reverse_proxy 10.0.0.1:80 10.0.0.2:80 {
                		lb_policy least_conn
                		fail_duration 10s
                		unhealthy_status 5xx
                		health_uri /health
                	}
                }
                """);
        CliRunner.Outcome text = CliRunner.run(args("--caddy", caddyfile));
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out().lines().toList().subList(1, 3))
                .containsExactly(
                        "not modelled: Caddyfile:3: lb_policy least_conn; the lab models random, first and round_robin,"
                                + " and uses random",
                        "not modelled: Caddyfile:6: active health checks (health_uri) are not modelled: Caddy also"
                                + " takes an upstream out while its check fails; a passing check never brings back one"
                                + " the passive count took out");
        CliRunner.Outcome json = CliRunner.run(args("--caddy", caddyfile, "--format", "json"));
        assertThat(json.exit()).as(json.err()).isZero();
        assertThat(json.out()).contains("\"not_modelled\" : [ \"Caddyfile:3: lb_policy least_conn");
        Path plain = dir.resolve("plain");
        Files.writeString(plain, """
                :80 {
                	reverse_proxy 10.0.0.1:80 10.0.0.2:80 {
                		fail_duration 10s
                	}
                }
                """);
        assertThat(CliRunner.run(args("--caddy", plain, "--format", "json")).out())
                .as("a file the lab models whole")
                .doesNotContain("not_modelled");
    }
}
