package dev.outlierlab.config.caddy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import dev.outlierlab.engine.caddy.CaddySelection;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaddyConfigReaderTest {
    static final long MS = Durations.MILLISECOND;

    @Test
    void readsACaddyfileAndTheSameAsJson() {
        CaddySettings file = CaddyConfigReader.readText("""
                example.com {
                    reverse_proxy 10.0.0.1:8080 10.0.0.2:8080 {
                        lb_policy round_robin
                        lb_try_duration 5s
                        fail_duration 30s   # passive checks on
                        unhealthy_status 5xx 429
                        unhealthy_latency 1.5s
                        transport http {
                            response_header_timeout 2s
                        }
                    }
                }
                """, "Caddyfile");
        CaddyPassiveConfig expected = new CaddyPassiveConfig(
                List.of("10.0.0.1:8080", "10.0.0.2:8080"),
                30_000 * MS,
                1,
                List.of(5, 429),
                1500 * MS,
                5000 * MS,
                250 * MS,
                0,
                CaddySelection.Policy.ROUND_ROBIN,
                2000 * MS);
        assertThat(file.config()).isEqualTo(expected);
        assertThat(file.line()).isEqualTo(2);
        CaddySettings json = CaddyConfigReader.readText("""
                {"apps": {"http": {"servers": {"srv0": {"routes": [{"handle": [{"handler": "subroute", "routes": [
                  {"handle": [{"handler": "reverse_proxy",
                    "upstreams": [{"dial": "10.0.0.1:8080"}, {"dial": "10.0.0.2:8080"}],
                    "load_balancing": {"selection_policy": {"policy": "round_robin"}, "try_duration": 5000000000},
                    "transport": {"protocol": "http", "response_header_timeout": 2000000000},
                    "health_checks": {"passive": {"fail_duration": "30s", "unhealthy_status": [5, 429],
                      "unhealthy_latency": "1.5s"}}}]}]}]}]}}}}}
                """, "caddy.json");
        assertThat(json.config()).isEqualTo(expected);
        assertThat(json.line()).as("the handler's line, for check's findings").isEqualTo(2);
    }

    @Test
    void whatTheLabDoesNotModelIsNotedOnceWithItsLineInBothFormats() {
        CaddySettings file = CaddyConfigReader.readText("""
                example.com {
                    reverse_proxy 10.0.0.1:80 10.0.0.2:80 {
                        lb_policy least_conn
                        fail_duration 10s
                        unhealthy_request_count 50
                        health_uri /health
                        health_interval 5s
                    }
                }
                """, "Caddyfile");
        assertThat(file.notes())
                .containsExactly(
                        "Caddyfile:3: lb_policy least_conn; the lab models random, first and round_robin, and uses random",
                        "Caddyfile:5: unhealthy_request_count 50 is not modelled: Caddy also skips an upstream while it"
                                + " has that many requests in flight",
                        "Caddyfile:6: active health checks (health_uri) are not modelled: Caddy also takes an upstream"
                                + " out while its check fails; a passing check never brings back one the passive count"
                                + " took out");
        assertThat(file.config().policy()).isEqualTo(CaddySelection.Policy.RANDOM);
        CaddySettings json = CaddyConfigReader.readText("""
                {"apps": {"http": {"servers": {"srv0": {"routes": [
                  {"handle": [{"handler": "reverse_proxy",
                    "upstreams": [{"dial": "10.0.0.1:80"}, {"dial": "10.0.0.2:80"}],
                    "load_balancing": {"selection_policy": {"policy": "least_conn"}},
                    "health_checks": {"active": {"uri": "/health"},
                      "passive": {"fail_duration": "10s", "unhealthy_request_count": 50}}}]}]}}}}}
                """, "caddy.json");
        assertThat(json.notes()).hasSize(3).allSatisfy(n -> assertThat(n).startsWith("caddy.json:2: "));
        assertThat(json.notes().get(1)).contains("active health checks (health_checks.active) are not modelled");
        assertThat(CaddyConfigReader.readText(
                                "example.com {\n reverse_proxy 10.0.0.1:80 {\n fail_duration 10s\n }\n}\n", "Caddyfile")
                        .notes())
                .as("nothing to note")
                .isEmpty();
    }

    @Test
    void bracesInsideQuotesHeredocsAndPlaceholdersDoNotOpenBlocks() {
        // Caddy's lexer: a quoted "}" or a heredoc's lines are one token; {host} is a placeholder, not a block
        CaddySettings read = CaddyConfigReader.readText("""
                example.com {
                    header X-Note "a } b \\" still quoted {"
                    respond <<HTML
                        <p>{ not a block</p>
                        HTML 200
                    reverse_proxy {host}:8080 10.0.0.2:8080 {
                        fail_duration 30s
                        header_up Host `{ back`
                    }
                }
                """, "Caddyfile");
        assertThat(read.config().failDurationNanos()).isEqualTo(30_000 * MS);
        assertThat(read.line()).isEqualTo(6);
        assertThatThrownBy(() -> CaddyConfigReader.readText(":80 {\n reverse_proxy a:1\n}\n}\n", "Caddyfile"))
                .hasMessage("Caddyfile:4: unexpected }; expected it to close a block opened with {");
        assertThatThrownBy(() -> CaddyConfigReader.readText(":80 {\n respond <<EOF\n x\n", "Caddyfile"))
                .hasMessageStartingWith("Caddyfile:2: the heredoc opened on line 2 is never closed");
    }

    @Test
    void errorsNameTheLine() {
        assertThatThrownBy(() -> CaddyConfigReader.readText(
                        ":80 {\n reverse_proxy a:1 {\n  fail_duration 10x\n }\n}", "Caddyfile"))
                .hasMessage("Caddyfile:3: fail_duration \"10x\" is not allowed; expected a duration such "
                        + "as 30s, 500ms or 1m, at most 316224000s");
        assertThatThrownBy(() -> CaddyConfigReader.readText(":80 {\n respond ok\n}", "Caddyfile"))
                .hasMessage("Caddyfile: no reverse_proxy directive");
    }

    @Test
    void responseHeaderTimeoutIsReadOnlyFromTheHttpTransportAndBadValuesNameTheKey() {
        String file = ":80 {\n reverse_proxy a:1 {\n  %s {\n   response_header_timeout %s\n  }\n }\n}";
        assertThat(CaddyConfigReader.readText(file.formatted("transport http", "1m30s"), "Caddyfile")
                        .config()
                        .responseHeaderTimeoutNanos())
                .isEqualTo(90_000 * MS);
        assertThat(CaddyConfigReader.readText(file.formatted("transport fastcgi", "5s"), "Caddyfile")
                        .config()
                        .responseHeaderTimeoutNanos())
                .as("another transport's is not the http transport's")
                .isZero();
        assertThat(CaddyConfigReader.readText(":80 {\n reverse_proxy a:1\n}", "Caddyfile")
                        .config()
                        .responseHeaderTimeoutNanos())
                .as("Caddy's default: none")
                .isZero();
        assertThatThrownBy(() -> CaddyConfigReader.readText(file.formatted("transport http", "-5s"), "Caddyfile"))
                .hasMessage("Caddyfile:4: response_header_timeout \"-5s\" is not allowed; expected a duration such "
                        + "as 30s, 500ms or 1m, at most 316224000s");
        assertThatThrownBy(() -> CaddyConfigReader.readText(file.formatted("transport http", "soon"), "Caddyfile"))
                .hasMessageStartingWith("Caddyfile:4: response_header_timeout \"soon\" is not allowed");
        String json = "{\"apps\": {\"http\": {\"servers\": {\"s\": {\"routes\": [{\"handle\": [{\"handler\":"
                + " \"reverse_proxy\", \"upstreams\": [{\"dial\": \"a:1\"}], \"transport\": {\"protocol\": \"http\","
                + " \"response_header_timeout\": %s}}]}]}}}}}";
        assertThat(CaddyConfigReader.readText(json.formatted("\"2s\""), "caddy.json")
                        .config()
                        .responseHeaderTimeoutNanos())
                .isEqualTo(2000 * MS);
        assertThatThrownBy(() -> CaddyConfigReader.readText(json.formatted("-1"), "caddy.json"))
                .hasMessageContaining("response_header_timeout");
    }
}
