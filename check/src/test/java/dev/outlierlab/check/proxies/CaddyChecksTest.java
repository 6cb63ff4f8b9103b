package dev.outlierlab.check.proxies;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.check.Finding;
import dev.outlierlab.check.ServerRule;
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
                        ServerRule.CADDY_DIAL_ERRORS_REACH_CLIENTS);
        assertThat(f.get(0).fix()).isEqualTo("unhealthy_status 5xx");
        assertThat(f.get(0).line()).isEqualTo(2);
        assertThat(f.get(2).message()).contains("a dead upstream takes 1 requests every 10s");
    }

    @Test
    void aSlow5xxCountsTwiceAndNoFailDurationIsOff() {
        assertThat(check("\t\tfail_duration 10s\n\t\tmax_fails 3\n\t\tunhealthy_status 5xx\n\t\tunhealthy_latency 1s\n"
                        + "\t\tlb_try_duration 2s\n"))
                .extracting(Finding::rule)
                .containsExactly(ServerRule.CADDY_SLOW_5XX_TWICE);
        assertThat(check("\t\tlb_policy first\n"))
                .extracting(Finding::rule)
                .containsExactly(ServerRule.CADDY_PASSIVE_OFF);
    }
}
