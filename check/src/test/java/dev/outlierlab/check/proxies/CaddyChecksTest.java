package dev.outlierlab.check.proxies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.ServerRule;
import dev.outlierlab.check.Severity;
import dev.outlierlab.config.caddy.CaddyConfigReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaddyChecksTest {
    private static List<Finding> check(String block) {
        return CaddyChecks.forReverseProxy(
                CaddyConfigReader.readText(":80 {\n\treverse_proxy a:80 b:80 {\n" + block + "\t}\n}\n", "Caddyfile"),
                "Caddyfile");
    }

    @Test
    void failDurationAloneCountsNo5xxOutsOnOneFailureAndLetsDialErrorsThrough() {
        List<Finding> f = check("\t\tfail_duration 10s\n");
        assertThat(f)
                .extracting(Finding::rule)
                .containsExactly(
                        ServerRule.CADDY_5XX_NOT_COUNTED,
                        ServerRule.CADDY_MAX_FAILS_ONE,
                        ServerRule.CADDY_DIAL_ERRORS_REACH_CLIENTS,
                        ServerRule.CADDY_HANGING_UPSTREAM_NEVER_COUNTED);
        assertThat(f.get(0).fix()).isEqualTo("unhealthy_status 5xx");
        assertThat(f.get(0).line()).isEqualTo(2);
        assertThat(f.get(2).message()).contains("a dead upstream takes 1 requests every 10s");
    }

    @Test
    void aSlow5xxCountsTwiceAndNoFailDurationIsOff() {
        assertThat(check("\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tunhealthy_status 5xx\n\t\tunhealthy_latency 1s\n"
                        + "\t\tlb_try_duration 2s\n\t\ttransport http {\n\t\t\tresponse_header_timeout 3s\n\t\t}\n"))
                .extracting(Finding::rule)
                .containsExactly(ServerRule.CADDY_SLOW_5XX_TWICE);
        assertThat(check("\t\tlb_policy first\n"))
                .extracting(Finding::rule)
                .containsExactly(ServerRule.CADDY_PASSIVE_OFF);
    }

    @Test
    void passiveChecksWithoutResponseHeaderTimeoutNeverCountAHangingUpstream() {
        List<Finding> f = check(
                "\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tunhealthy_status 5xx\n" + "\t\tlb_try_duration 5s\n");
        assertThat(f).extracting(Finding::rule).containsExactly(ServerRule.CADDY_HANGING_UPSTREAM_NEVER_COUNTED);
        Finding hang = f.get(0);
        assertThat(hang.severity()).isEqualTo(Severity.WARNING);
        assertThat(hang.line()).isEqualTo(2);
        assertThat(hang.message())
                .contains("never counted toward max_fails 3 in fail_duration 10s, never taken out")
                .contains("1 in 2 of the requests across 2 upstreams")
                .contains("must exceed the slowest legitimate response");
        assertThat(hang.numbers()).containsEntry("max_fails", 3L).containsEntry("upstreams", 2L);
        assertThat(hang.fix()).isEqualTo("transport http {\n\tresponse_header_timeout 5s\n}");
        // the fix is read back as the timeout it sets, and then there is nothing to say
        assertThat(check("\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tunhealthy_status 5xx\n"
                        + "\t\tlb_try_duration 5s\n" + hang.fix().indent(2).replace("  ", "\t")))
                .isEmpty();
        // under lb_policy first the hanging first upstream holds every request
        assertThat(check("\t\tlb_policy first\n\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tunhealthy_status 5xx\n"
                                + "\t\tlb_try_duration 5s\n")
                        .get(0)
                        .message())
                .contains("every request while it is the first available");
        // passive checks off: caddy-passive-off says it, not this
        assertThat(check("\t\tlb_try_duration 5s\n"))
                .extracting(Finding::rule)
                .containsExactly(ServerRule.CADDY_PASSIVE_OFF);
    }

    @Test
    void caddysJsonGetsTheTransportAsItsFix() {
        String json = """
                {"apps": {"http": {"servers": {"a": {"routes": [{"handle": [{
                  "handler": "reverse_proxy",
                  "upstreams": [{"dial": "a:80"}, {"dial": "b:80"}, {"dial": "c:80"}],
                  "load_balancing": {"try_duration": "5s"},
                  "health_checks": {"passive": {"fail_duration": "10s", "max_fails": 3, "unhealthy_status": [5]}}%s
                }]}]}}}}}
                """;
        List<Finding> f =
                CaddyChecks.forReverseProxy(CaddyConfigReader.readText(json.formatted(""), "c.json"), "c.json");
        assertThat(f).extracting(Finding::rule).containsExactly(ServerRule.CADDY_HANGING_UPSTREAM_NEVER_COUNTED);
        assertThat(f.get(0).message()).contains("1 in 3 of the requests across 3 upstreams");
        assertThat(f.get(0).fix())
                .isEqualTo("\"transport\": {\"protocol\": \"http\", \"response_header_timeout\": \"5s\"}");
        String fixed = json.formatted(",\n  " + f.get(0).fix());
        assertThat(CaddyChecks.forReverseProxy(CaddyConfigReader.readText(fixed, "c.json"), "c.json"))
                .isEmpty();
    }
}
