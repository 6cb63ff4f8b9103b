package dev.outlierlab.config.nginx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.outlierlab.engine.nginx.NextUpstream;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NginxConfWriterTest {
    @TempDir
    Path dir;

    private String conf() {
        return "worker_processes 2;\npid " + dir.resolve("nginx.pid") + ";\nerror_log " + dir.resolve("error.log")
                + ";\nevents { worker_connections 64; }\nhttp {\n    access_log off;\n"
                + "    # the api's servers\n    upstream api {\n        server 127.0.0.1:9001 weight=2;"
                + "   # primary\n        server 127.0.0.1:9002 max_fails=5 down;\n    }\n    server {\n"
                + "        listen 127.0.0.1:9000;\n        location / {\n            proxy_pass http://api;\n"
                + "        }\n    }\n}\n";
    }

    @Test
    void writesOnlyTheTunedDirectivesAndNginxAcceptsTheResult() throws Exception {
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, conf());
        NginxSettings s = NginxUpstreamReader.read(file, null);
        NextUpstream next = new NextUpstream(
                NextUpstream.ERROR | NextUpstream.TIMEOUT | NextUpstream.HTTP_502 | NextUpstream.HTTP_503, 0);
        Map<Path, String> written = NginxConfWriter.write(s, new NginxConfWriter.Tuning(3, 30L, next, true));
        String out = written.get(file.toAbsolutePath().normalize());
        List<String> before = List.of(conf().split("\n"));
        List<String> after = List.of(out.split("\n"));
        List<String> changed = new ArrayList<>(after);
        changed.removeAll(before);
        assertThat(changed)
                .containsExactly(
                        "        zone api 64k;",
                        "        server 127.0.0.1:9001 weight=2 max_fails=3 fail_timeout=30s;   # primary",
                        "        server 127.0.0.1:9002 max_fails=3 down fail_timeout=30s;",
                        "            proxy_next_upstream error timeout http_502 http_503;");
        assertThat(after).hasSize(before.size() + 2);
        NginxSettings reread = NginxUpstreamReader.readText(out, "nginx.conf", null);
        assertThat(reread.config().servers().get(0).maxFails()).isEqualTo(3);
        assertThat(reread.config().nextUpstream()).isEqualTo(next);
        assertThat(reread.config().zone()).isTrue();

        assumeTrue(new File("/usr/sbin/nginx").canExecute(), "nginx is not installed at /usr/sbin/nginx");
        Files.writeString(file, out);
        Process p = new ProcessBuilder(
                        "/usr/sbin/nginx",
                        "-t",
                        "-p",
                        dir.toString(),
                        "-c",
                        file.toString(),
                        "-e",
                        dir.resolve("error.log").toString())
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(said).contains("test is successful");
    }
}
