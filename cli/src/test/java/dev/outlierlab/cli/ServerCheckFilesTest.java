package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code check DIR} over servers' own files, and {@code check --upstream NAME} / {@code --backend NAME}. */
class ServerCheckFilesTest {
    private static final String NGINX = """
            events {}
            http {
                upstream api { server 10.0.0.1:8080; server 10.0.0.2:8080; }
                upstream web { server 10.0.1.1:8080; }
                server { location / { proxy_pass http://api; } location /web { proxy_pass http://web; } }
            }
            """;

    private static final String HAPROXY = """
            backend app
              option httpchk GET /health
              server a 10.0.0.1:80 observe layer7
              server b 10.0.0.2:80 observe layer7
            backend static
              server s 10.0.2.1:80 check
            """;

    private static final String CADDY_JSON = """
            {"apps": {"http": {"servers": {"srv0": {"listen": [":8080"], "routes": [{"handle": [{
              "handler": "reverse_proxy",
              "upstreams": [{"dial": "10.0.3.1:80"}, {"dial": "10.0.3.2:80"}],
              "health_checks": {"passive": {"fail_duration": "10s", "max_fails": 3}}
            }]}]}}}}}
            """;

    @Test
    void aDirectoryOfServersFilesIsCheckedEveryPartOfEach(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("nginx.conf"), NGINX);
        Files.writeString(dir.resolve("haproxy.cfg"), HAPROXY);
        Files.createDirectories(dir.resolve("site"));
        Files.writeString(dir.resolve("site/Caddyfile"), ":80 {\n\treverse_proxy 10.0.4.1:80 10.0.4.2:80\n}\n");
        Files.writeString(dir.resolve("caddy.json"), CADDY_JSON);
        Files.writeString(dir.resolve("notes.txt"), "not a configuration");
        CliRunner.Outcome o = CliRunner.run("check", dir.toString());
        assertThat(o.exit()).as(o.err()).isIn(0, 1);
        assertThat(o.out())
                .contains("upstream api")
                .contains("upstream web")
                .contains("nginx-single-server")
                .contains("backend app")
                .contains("backend static")
                .contains("haproxy-observe-without-check")
                .contains("caddy-5xx-not-counted")
                .doesNotContain("notes.txt");
        // the JSON's reverse_proxy (no unhealthy_status) and the Caddyfile's (no passive checks at all)
        assertThat(o.out())
                .startsWith("outlier-lab check " + dir + ": 6 proxy configurations")
                .contains("caddy.json")
                .contains("site/Caddyfile")
                .contains("caddy-passive-off");
    }

    @Test
    void upstreamAndBackendPickOnePart_anUnknownNameIsOneMessageListingTheNames(@TempDir Path dir) throws IOException {
        Path nginx = dir.resolve("nginx.conf");
        Files.writeString(nginx, NGINX);
        CliRunner.Outcome web = CliRunner.run("check", nginx.toString(), "--upstream", "web");
        assertThat(web.out()).contains("upstream web").doesNotContain("upstream api");
        CliRunner.run("check", nginx.toString(), "--upstream", "nope")
                .assertRejected("no upstream \"nope\"; the file has api, web");
        Path haproxy = dir.resolve("haproxy.cfg");
        Files.writeString(haproxy, HAPROXY);
        CliRunner.Outcome app = CliRunner.run("check", haproxy.toString(), "--backend", "app");
        assertThat(app.out()).contains("backend app").doesNotContain("backend static");
        CliRunner.run("check", haproxy.toString(), "--backend", "nope")
                .assertRejected("no backend \"nope\"; the file has app, static");
        CliRunner.run("check", nginx.toString(), "--backend", "app")
                .assertRejected("--backend app: names a part of a haproxy configuration, and no such file was checked");
    }
}
