package dev.outlierlab.config.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import org.junit.jupiter.api.Test;

/**
 * The {@code proxy_read_timeout} in effect where the upstream is used (its location's, else inherited from the server
 * or http block), as nginx's {@code ngx_parse_time} reads it with milliseconds; 60 s when none is set.
 */
class NginxReadTimeoutTest {
    static final long MS = 1_000_000L;

    static long read(String httpLevel, String location) {
        return NginxUpstreamReader.readText(
                        "events { }\nhttp {\n" + httpLevel + "  upstream api {\n    server 10.0.0.1:8080;\n  }\n"
                                + "  server {\n    listen 127.0.0.1:8080;\n    location / {\n"
                                + "      proxy_pass http://api;\n" + location + "    }\n  }\n}\n",
                        "nginx.conf",
                        null)
                .readTimeoutNanos();
    }

    @Test
    void theTimeInEffectWhereTheUpstreamIsUsed() {
        assertThat(read("", "")).isEqualTo(60_000 * MS);
        assertThat(read("", "      proxy_read_timeout 5s;\n")).isEqualTo(5_000 * MS);
        assertThat(read("  proxy_read_timeout 90;\n", "")).isEqualTo(90_000 * MS);
        assertThat(read("  proxy_read_timeout 90;\n", "      proxy_read_timeout 500ms;\n"))
                .isEqualTo(500 * MS);
        assertThat(read("", "      proxy_read_timeout 1m30s;\n")).isEqualTo(90_000 * MS);
        assertThat(read("", "      proxy_read_timeout 0;\n")).isZero(); // nginx accepts it too
        // a number without a unit, last, is seconds after any unit (ngx_parse_time's st_last)
        assertThat(read("", "      proxy_read_timeout 10s5;\n")).isEqualTo(15_000 * MS);
    }

    @Test
    void aTimeNginxRefusesIsOneMessage() {
        for (String bad : new String[] {"5x", "30s1m", "10s5s", "400y", "25d", "s"}) {
            assertThatThrownBy(() -> read("", "      proxy_read_timeout " + bad + ";\n"))
                    .as(bad)
                    .isInstanceOf(InputException.class)
                    .hasMessage("nginx.conf:10: proxy_read_timeout \"" + bad + "\" is not allowed; expected a time"
                            + " such as 60s, 500ms or 1m30s (units y M w d h m s ms in that order, each once), at most"
                            + " 24d20h31m23s647ms, as nginx's msec values");
        }
    }
}
