package dev.outlierlab.config.haproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.haproxy.HaproxyServer;
import dev.outlierlab.engine.haproxy.Observe;
import dev.outlierlab.engine.haproxy.OnError;
import org.junit.jupiter.api.Test;

class HaproxyConfigReaderTest {
    static final String CFG = """
            global
              log stdout format raw local0
            defaults
              mode http
              default-server inter 3s fall 2
            frontend fe
              bind 127.0.0.1:8080
              default_backend app
            backend app   # the one
              option httpchk GET /health
              default-server observe layer7
              server s1 10.0.0.1:8080 check error-limit 5 on-error mark-down fastinter 500
              server s2 10.0.0.2:8080 observe layer4
            backend other
              server o1 10.0.0.9:80
            """;

    @Test
    void readsTheNamedBackendWithDefaultServerApplied() {
        HaproxySettings s = HaproxyConfigReader.readText(CFG, "haproxy.cfg", "app");
        assertThat(s.httpCheck()).isTrue();
        assertThat(s.serverLines()).containsExactly(12, 13);
        HaproxyServer s1 = s.servers().get(0);
        assertThat(s1)
                .isEqualTo(new HaproxyServer(
                        "s1",
                        "10.0.0.1:8080",
                        true,
                        Observe.LAYER7,
                        5,
                        OnError.MARK_DOWN,
                        3 * Durations.SECOND,
                        500 * Durations.MILLISECOND,
                        0,
                        2,
                        2));
        assertThat(s.servers().get(1).check()).isFalse();
        assertThat(s.servers().get(1).observe()).isEqualTo(Observe.LAYER4);
    }

    @Test
    void errorsNameTheLine() {
        assertThatThrownBy(() -> HaproxyConfigReader.readText(CFG, "haproxy.cfg", null))
                .hasMessage("haproxy.cfg: several backends (app, other); name one with --backend NAME");
        assertThatThrownBy(
                        () -> HaproxyConfigReader.readText(CFG.replace("mark-down", "explode"), "haproxy.cfg", "app"))
                .hasMessage("haproxy.cfg:12: on-error \"explode\" is not allowed; expected fastinter, "
                        + "fail-check, sudden-death or mark-down");
        assertThatThrownBy(() -> HaproxyConfigReader.readText(CFG, "haproxy.cfg", "nope"))
                .hasMessage("haproxy.cfg: no backend \"nope\"; the file has app, other");
    }

    @Test
    void backupServersAreLeftOutAndABackendOfThemAloneIsRefused() {
        HaproxySettings s = HaproxyConfigReader.readText("""
                backend be
                  server a 10.0.0.1:80 check
                  server b 10.0.0.2:80 check backup
                """, "haproxy.cfg", null);
        assertThat(s.servers()).extracting(HaproxyServer::name).containsExactly("a");
        assertThat(s.serverLines()).containsExactly(2);
        assertThat(s.notes()).singleElement().asString().startsWith("haproxy.cfg:3: backup server b 10.0.0.2:80");
        assertThatThrownBy(() -> HaproxyConfigReader.readText(
                        "backend be\n  server b 10.0.0.2:80 backup\n", "haproxy.cfg", null))
                .isInstanceOf(InputException.class)
                .hasMessage("haproxy.cfg:1: backend has no server line that is not backup; the lab models the active "
                        + "servers");
    }
}
