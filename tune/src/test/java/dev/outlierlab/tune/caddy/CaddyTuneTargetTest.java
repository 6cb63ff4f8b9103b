package dev.outlierlab.tune.caddy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.caddy.CaddyPassiveConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaddyTuneTargetTest {
    static final long S = Durations.SECOND;

    @Test
    void theSearchsCaddyfileKeepsTheTransportsResponseHeaderTimeout() {
        // tune runs each setting on the Caddyfile it writes, read back: without the transport block a hanging
        // upstream's tries would be held instead of timed out and retried
        CaddyPassiveConfig c = CaddyPassiveConfig.of(List.of("10.0.0.1:80", "10.0.0.2:80"), 10 * S, 3)
                .withRetries(5 * S, 0, 0)
                .withResponseHeaderTimeout(2 * S);
        String file = CaddyTuneTarget.caddyfile(c);
        assertThat(file).contains("\t\ttransport http {\n\t\t\tresponse_header_timeout 2s\n\t\t}\n");
        assertThat(CaddyConfigReader.readText(file, "tune-Caddyfile").config()).isEqualTo(c);
        assertThat(CaddyTuneTarget.caddyfile(c.withResponseHeaderTimeout(0))).doesNotContain("transport");
    }
}
