package dev.outlierlab.config.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NginxUpstreamReaderTest {
    @TempDir
    Path dir;

    @Test
    void readsAnUpstreamFromAWholeConfigurationWithIncludes() throws Exception {
        Files.createDirectories(dir.resolve("conf.d"));
        Files.writeString(dir.resolve("nginx.conf"), """
                worker_processes 4;
                events { worker_connections 1024; }
                http {
                    include conf.d/*.conf;
                    proxy_next_upstream error timeout http_503;   # inherited by the location
                    server {
                        listen 80;
                        location /api/ { proxy_pass http://api/; proxy_next_upstream_tries 2; }
                    }
                }
                """);
        Files.writeString(dir.resolve("conf.d/api.conf"), """
                upstream api {
                    server 10.0.0.1:8080 max_fails=3 fail_timeout=30s;
                    server 10.0.0.2:8080 weight=2;
                    server "10.0.0.3:8080" fail_timeout=1m down;
                }
                """);
        NginxSettings s = NginxUpstreamReader.read(dir.resolve("nginx.conf"), null);
        assertThat(s.config().name()).isEqualTo("api");
        assertThat(s.config().servers())
                .containsExactly(
                        new NginxServer("10.0.0.1:8080", 1, 3, 30, false),
                        new NginxServer("10.0.0.2:8080", 2, 1, 10, false),
                        new NginxServer("10.0.0.3:8080", 1, 1, 60, true));
        assertThat(s.config().workers()).isEqualTo(4);
        assertThat(s.config().zone()).isFalse();
        assertThat(s.config().nextUpstream())
                .isEqualTo(new NextUpstream(NextUpstream.ERROR | NextUpstream.TIMEOUT | NextUpstream.HTTP_503, 2));
        assertThat(s.serverLines().get(0).file().getFileName()).hasToString("api.conf");
        assertThat(s.serverLines().get(0).line()).isEqualTo(2);
        String text = s.texts().get(s.serverLines().get(1).file());
        assertThat(text.substring(
                        s.serverLines().get(1).start(), s.serverLines().get(1).end()))
                .isEqualTo("server 10.0.0.2:8080 weight=2;");
    }

    @Test
    void errorsNameTheFileAndLine() {
        assertThatThrownBy(() -> NginxUpstreamReader.readText("""
                http {
                  upstream a {
                    server 10.0.0.1 max_fails=x;
                  }
                }
                """, "nginx.conf", null))
                .isInstanceOf(InputException.class)
                .hasMessage("nginx.conf:3: max_fails=x is not allowed; expected a whole number from 0 to 1000000");
        assertThatThrownBy(() -> NginxUpstreamReader.readText(
                        "http { upstream a { server 10.0.0.1 fail_timeout=500ms;" + " } }", "nginx.conf", null))
                .hasMessageContaining("nginx.conf:1: fail_timeout=500ms is not allowed");
        assertThatThrownBy(() ->
                        NginxUpstreamReader.readText("http {\n upstream a {\n server 10.0.0.1;\n", "n.conf", null))
                .hasMessage("n.conf:4: unexpected end of file, expecting \"}\"");
        assertThatThrownBy(() -> NginxUpstreamReader.readText(
                        "http { upstream a { server x; } upstream b { server y; }" + " }", "n.conf", null))
                .hasMessage("n.conf: 2 upstream blocks (a, b); name one with --upstream NAME");
        assertThatThrownBy(() -> NginxUpstreamReader.readText(
                        "http { proxy_next_upstream error http_999; "
                                + "upstream a { server x; } server { location / { proxy_pass http://a; } } }",
                        "n.conf",
                        null))
                .hasMessageContaining("n.conf:1: proxy_next_upstream: \"http_999\" is not allowed");
    }

    @Test
    void backupServersAreReadInTheirPlaceWithTheirOwnParameters() {
        NginxSettings s = NginxUpstreamReader.readText("""
                http {
                  upstream api {
                    server 10.0.0.1:8080 max_fails=2 fail_timeout=5s;
                    server 10.0.0.3:8080 backup max_fails=4;
                    server 10.0.0.2:8080 weight=3;
                  }
                  server { location / { proxy_pass http://api; } }
                }
                """, "nginx.conf", null);
        assertThat(s.config().hosts()).containsExactly("10.0.0.1:8080", "10.0.0.3:8080", "10.0.0.2:8080");
        assertThat(s.config().servers())
                .extracting(NginxServer::backup, NginxServer::maxFails, NginxServer::weight)
                .containsExactly(tuple(false, 2, 1), tuple(true, 4, 1), tuple(false, 1, 3));
        assertThat(s.serverLines()).extracting(ConfDirective::line).containsExactly(3, 4, 5);
        assertThat(s.notes()).isEmpty();
        assertThat(s.config().single()).isFalse();
        assertThatThrownBy(() -> NginxUpstreamReader.readText(
                        "http {\n upstream a {\n server x backup;\n server y backup;\n }\n}", "n.conf", null))
                .isInstanceOf(InputException.class)
                .hasMessage("n.conf:2: upstream \"a\": every server line is backup; expected at least one server"
                        + " without backup, as nginx refuses an upstream of backup servers only (\"no servers in"
                        + " upstream\")");
    }

    @Test
    void timesAreNginxSeconds() {
        assertThat(NginxUpstreamReader.readText("http { upstream a { server x fail_timeout=1m30s; } }", "n", null)
                        .config()
                        .servers()
                        .get(0)
                        .failTimeoutSeconds())
                .isEqualTo(90);
        assertThat(NginxUpstreamReader.readText("http { upstream a { server x fail_timeout=7; } }", "n", null)
                        .config()
                        .servers()
                        .get(0)
                        .failTimeoutSeconds())
                .isEqualTo(7);
    }
}
