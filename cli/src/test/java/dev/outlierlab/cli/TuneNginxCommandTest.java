package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.outlierlab.config.nginx.NginxUpstreamReader;
import dev.outlierlab.engine.nginx.NextUpstream;
import dev.outlierlab.engine.nginx.NginxServer;
import dev.outlierlab.engine.nginx.NginxUpstreamConfig;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tune --from nginx.conf}: the upstream's passive check searched and written back into the user's file. */
class TuneNginxCommandTest {
    @TempDir
    Path dir;

    /** Two upstreams; the tuned one's location has no proxy_next_upstream of its own. */
    private String conf() {
        return "worker_processes 1;\npid " + dir.resolve("nginx.pid") + ";\nerror_log " + dir.resolve("error.log")
                + ";\nevents { worker_connections 64; }\nhttp {\n    access_log off;\n"
                + "    upstream api {\n        server 127.0.0.1:9001 weight=2;   # primary\n"
                + "        server 127.0.0.1:9002;\n        server 127.0.0.1:9003;\n    }\n"
                + "    upstream static {\n        server 127.0.0.1:9101 max_fails=4;\n    }\n"
                + "    server {\n        listen 127.0.0.1:9000;\n"
                + "        location /static/ {\n            proxy_pass http://static;\n"
                + "            proxy_next_upstream error;\n        }\n"
                + "        location / {\n            proxy_pass http://api;\n        }\n    }\n}\n";
    }

    @Test
    void writesBackOnlyTheTunedDirectivesAndNginxAcceptsTheFile() throws Exception {
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, conf());
        CliRunner.Outcome o = CliRunner.run(
                "tune",
                "--from",
                file.toString(),
                "--upstream",
                "api",
                "--seeds",
                "1",
                "--rps",
                "100",
                "--format",
                "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode rec = o.json().get("recommended");
        String written = rec.get("file").asText();
        assertThat(rec.get("spliced").asBoolean()).isTrue();

        // what the file now says is what was recommended
        NginxUpstreamConfig api =
                NginxUpstreamReader.readText(written, "nginx.conf", "api").config();
        NginxServer first = api.servers().get(0);
        int http5xx = NextUpstream.HTTP_500 | NextUpstream.HTTP_502 | NextUpstream.HTTP_503 | NextUpstream.HTTP_504;
        int gateway = NextUpstream.HTTP_502 | NextUpstream.HTTP_503 | NextUpstream.HTTP_504;
        assertThat(rec.get("label").asText())
                .isEqualTo("max_fails=" + first.maxFails() + " fail_timeout=" + first.failTimeoutSeconds() + "s "
                        + (api.nextUpstream().lists(http5xx)
                                ? "+5xx"
                                : api.nextUpstream().lists(gateway) ? "+502/503/504" : "-5xx"));
        assertThat(rec.get("label").asText())
                .isNotEqualTo(o.json().get("current").get("label").asText());
        assertThat(api.servers())
                .allMatch(
                        s -> s.maxFails() == first.maxFails() && s.failTimeoutSeconds() == first.failTimeoutSeconds());
        assertThat(api.servers().get(0).weight()).isEqualTo(2);
        // the other upstream and its location are as they were
        NginxUpstreamConfig other =
                NginxUpstreamReader.readText(written, "nginx.conf", "static").config();
        assertThat(other.servers().get(0).maxFails()).isEqualTo(4);
        assertThat(other.nextUpstream().words()).containsExactly("error");

        // a line diff touches only the api's server lines and the proxy_next_upstream of its location
        List<String> before = List.of(conf().split("\n", -1));
        List<String> after = List.of(written.split("\n", -1));
        List<String> added = new ArrayList<>(after);
        added.removeAll(before);
        List<String> removed = new ArrayList<>(before);
        removed.removeAll(after);
        assertThat(added).isNotEmpty();
        assertThat(added)
                .allMatch(l -> l.matches("        server 127\\.0\\.0\\.1:900[123].*;.*")
                        || l.matches("            proxy_next_upstream [a-z_0-9 ]+;"));
        assertThat(removed).allMatch(l -> l.matches("        server 127\\.0\\.0\\.1:900[123].*;.*"));
        assertThat(after.size() - before.size()).isBetween(0, 1);
        assertThat(written).contains("weight=2").contains("# primary");

        assumeTrue(new File("/usr/sbin/nginx").canExecute(), "nginx is not installed at /usr/sbin/nginx");
        Path out = dir.resolve("recommended.conf");
        Files.writeString(out, written);
        Process p = new ProcessBuilder(
                        "/usr/sbin/nginx",
                        "-t",
                        "-p",
                        dir.toString(),
                        "-c",
                        out.toString(),
                        "-e",
                        dir.resolve("error.log").toString())
                .redirectErrorStream(true)
                .start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.exitValue()).as(said).isZero();
        assertThat(said).contains("test is successful");
    }

    /** Two workers without a zone; the first server has its own max_fails and fail_timeout, the others none. */
    private static final String MIXED = "worker_processes 2;\nevents { worker_connections 64; }\nhttp {\n"
            + "    upstream api {\n        server 10.0.0.1:8080 max_fails=1 fail_timeout=5s;\n"
            + "        server 10.0.0.2:8080 max_fails=0;\n        server 10.0.0.3:8080 max_fails=0;\n    }\n"
            + "    server {\n        listen 127.0.0.1:8080;\n        location / {\n            proxy_pass http://api;\n"
            + "            proxy_next_upstream error timeout http_502 http_503;\n        }\n    }\n}\n";

    @Test
    void serversThatDifferAreLabelledServerByServerAndRunAsWritten() throws Exception {
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, MIXED);
        CliRunner.Outcome o =
                CliRunner.run("tune", "--from", file.toString(), "--seeds", "1", "--rps", "100", "--format", "json");
        assertThat(o.exit()).as(o.err()).isZero();
        JsonNode current = o.json().get("current");
        assertThat(current.get("label").asText()).isEqualTo("max_fails=1/0/0 fail_timeout=5s/10s/10s +502/503");
        // as written, only the first server counts failures: a shared outage of every server takes out one at most
        // (before, every server ran with the first server's values)
        JsonNode shared = null;
        for (JsonNode sc : current.get("scenarios")) {
            if (sc.get("name").asText().equals("shared-outage")) {
                shared = sc;
            }
        }
        assertThat(shared).isNotNull();
        assertThat(shared.get("most_ejected").asInt()).isEqualTo(1);
        // every candidate has one value for every server, and says it once
        for (JsonNode row : o.json().get("front")) {
            if (!row.get("label").asText().equals(current.get("label").asText())) {
                assertThat(row.get("label").asText())
                        .matches("max_fails=\\d+ fail_timeout=\\d+s (\\+5xx|\\+502/503/504|-5xx)");
            }
        }
        // the current settings count only the first server, the one the suite's single-host scenarios fail, so they
        // take a timing-out server out (slow requests 2.3 per 1,000 against 233.3 with max_fails=0) while retrying
        // 502 and 503 on the others: kept, as written, server by server
        JsonNode recommended = o.json().get("recommended");
        assertThat(recommended.get("label").asText()).isEqualTo("max_fails=1/0/0 fail_timeout=5s/10s/10s +502/503");
        assertThat(recommended.get("file").asText()).isEqualTo(MIXED);

        CliRunner.Outcome text = CliRunner.run("tune", "--from", file.toString(), "--seeds", "1", "--rps", "100");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("Current settings (" + file + "): max_fails=1/0/0 fail_timeout=5s/10s/10s +502/503")
                .contains("the recommendation is to keep them")
                .contains("Diff against " + file + ":\n  (no change)")
                .contains("nginx takes a server out after max_fails=1/0/0 failed attempts within "
                        + "fail_timeout=5s/10s/10s, for 5s/10s/10s; http_502 http_503 answers count")
                .contains("nginx forgets a server's failures only after fail_timeout passes without one")
                .contains("worker_processes 2 without zone: each worker counts its own failures");
    }

    @Test
    void aWrongUpstreamIsOneMessage() throws Exception {
        Path file = dir.resolve("nginx.conf");
        Files.writeString(file, conf());
        CliRunner.run("tune", "--from", file.toString(), "--upstream", "nope", "--seeds", "1")
                .assertRejected("no upstream \"nope\"", "api, static");
        CliRunner.run("tune", "--from", file.toString(), "--seeds", "1")
                .assertRejected("2 upstream blocks", "--upstream NAME");
        CliRunner.run("tune", "--upstream", "api", "--seeds", "1").assertRejected("--upstream api", "--from");
    }
}
