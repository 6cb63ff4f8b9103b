package dev.outlierlab.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.outlierlab.config.caddy.CaddyConfigReader;
import dev.outlierlab.config.caddy.CaddySettings;
import dev.outlierlab.config.caddy.CaddyfileWriter;
import dev.outlierlab.config.haproxy.HaproxyConfigReader;
import dev.outlierlab.config.haproxy.HaproxyConfigWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.haproxy.OnError;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tuned HAProxy and Caddy values written back: only the tuned lines change, and the real servers accept them. */
class ProxyConfigWritersTest {
    @TempDir
    Path dir;

    static List<String> changed(String before, String after) {
        List<String> out = new ArrayList<>(List.of(after.split("\n")));
        out.removeAll(List.of(before.split("\n")));
        return out;
    }

    static String run(Path dir, String... command) throws Exception {
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        b.environment().put("HOME", dir.toString());
        b.environment().put("XDG_DATA_HOME", dir.resolve("data").toString());
        b.environment().put("XDG_CONFIG_HOME", dir.resolve("config").toString());
        Process p = b.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(said).isZero();
        return said;
    }

    @Test
    void haproxyServerLinesGetTheTunedParametersAndHaproxyAcceptsThem() throws Exception {
        String cfg = "defaults\n  mode http\n  timeout connect 1s\n  timeout client 5s\n  timeout server 5s\n"
                + "frontend fe\n  bind 127.0.0.1:9000\n  default_backend be\n"
                + "backend be\n  option httpchk GET /health\n"
                + "  server a 127.0.0.1:9001 check observe layer7   # the primary\n"
                + "  server b 127.0.0.1:9002 weight 3 check inter 5s error-limit 10\n";
        Map<String, String> params = new LinkedHashMap<>();
        params.put("error-limit", "3");
        params.put("on-error", "mark-down");
        params.put("inter", "1s");
        String out = HaproxyConfigWriter.write(HaproxyConfigReader.readText(cfg, "haproxy.cfg", null), params);
        assertThat(changed(cfg, out))
                .containsExactly(
                        "  server a 127.0.0.1:9001 check observe layer7 error-limit 3 on-error mark-down inter 1s   # the primary",
                        "  server b 127.0.0.1:9002 weight 3 check inter 1s error-limit 3 on-error mark-down");
        var reread = HaproxyConfigReader.readText(out, "haproxy.cfg", null);
        assertThat(reread.servers().get(1).onError()).isEqualTo(OnError.MARK_DOWN);
        assertThat(reread.servers().get(1).interNanos()).isEqualTo(Durations.SECOND);
        assumeTrue(new File("/usr/sbin/haproxy").canExecute(), "HAProxy is not installed at /usr/sbin/haproxy");
        Path file = dir.resolve("haproxy.cfg");
        Files.writeString(file, out);
        assertThat(run(dir, "/usr/sbin/haproxy", "-c", "-f", file.toString())).contains("Configuration file is valid");
    }

    @Test
    void caddySubdirectivesAreReplacedOrAddedAndCaddyValidatesThem() throws Exception {
        String file = "{\n\tadmin off\n}\n:9000 {\n\tbind 127.0.0.1\n\treverse_proxy 127.0.0.1:9001 127.0.0.1:9002 {\n"
                + "\t\tlb_policy first\n\t\tfail_duration 10s\n\t\ttransport http {\n\t\t\tdial_timeout 1s\n\t\t}\n"
                + "\t}\n}\n";
        CaddySettings s = CaddyConfigReader.readText(file, "Caddyfile");
        Map<String, String> values = new LinkedHashMap<>();
        values.put("fail_duration", "30s");
        values.put("max_fails", "3");
        values.put("unhealthy_status", "5xx");
        values.put("lb_try_duration", "5s");
        String out = CaddyfileWriter.write(file, s, values);
        assertThat(changed(file, out))
                .containsExactly(
                        "\t\tfail_duration 30s",
                        "\t\tmax_fails 3",
                        "\t\tunhealthy_status 5xx",
                        "\t\tlb_try_duration 5s");
        assertThat(CaddyConfigReader.readText(out, "Caddyfile").config().maxFails())
                .isEqualTo(3);
        assumeTrue(new File("/usr/bin/caddy").canExecute(), "Caddy is not installed at /usr/bin/caddy");
        Path path = dir.resolve("Caddyfile");
        Files.writeString(path, out);
        assertThat(run(dir, "/usr/bin/caddy", "validate", "--config", path.toString(), "--adapter", "caddyfile"))
                .contains("Valid configuration");
    }
}
