package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.live.httpclient.LoopbackUpstream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code outlier-lab proxy} in-process over real HTTP on loopback: three {@link LoopbackUpstream}s, one
 * failing every request; the gateway profile's hard trip (3 in a row) with a 1 s ejection.
 */
class ProxyCommandTest {
    private static final Pattern URL = Pattern.compile("proxy at (http://127\\.0\\.0\\.1:\\d+/)");
    private final List<AutoCloseable> open = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private record Proxy(ProxyCommand command, CompletableFuture<Integer> exit, URI uri, StringWriter err) {}

    private Proxy start(String... args) throws Exception {
        CommandLine cli = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        ProxyCommand command = cli.getSubcommands().get("proxy").getCommand();
        String[] all = new String[args.length + 1];
        all[0] = "proxy";
        System.arraycopy(args, 0, all, 1, args.length);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cli.execute(all));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!URL.matcher(out.toString()).find() && !exit.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Matcher m = URL.matcher(out.toString());
        assertThat(m.find()).as("printed address in %s / %s", out, err).isTrue();
        open.add(command::stop);
        return new Proxy(command, exit, URI.create(m.group(1)), err);
    }

    private LoopbackUpstream upstream(String name) throws Exception {
        LoopbackUpstream u = LoopbackUpstream.start(name);
        open.add(u);
        return u;
    }

    private List<HttpResponse<String>> get(URI base, int n) throws Exception {
        List<HttpResponse<String>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(http.send(
                    HttpRequest.newBuilder(base.resolve("/search?q=" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        return out;
    }

    private String stats(URI base) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve("/stats")).build(), HttpResponse.BodyHandlers.ofString())
                .body();
    }

    @Test
    void prodEjectsTheFailingUpstreamNamesItAndBringsItBack() throws Exception {
        LoopbackUpstream a = upstream("a");
        LoopbackUpstream b = upstream("b").failing(100, 503);
        LoopbackUpstream c = upstream("c");
        Path stages = dir.resolve("stages.jsonl");
        Proxy p = start(
                "--upstream",
                "a=" + a.uri(),
                "--upstream",
                "b=" + b.uri(),
                "--upstream",
                "c=" + c.uri(),
                "--port",
                "0",
                "--set",
                "gateway.ejection_time=1s",
                "--stages",
                stages.toString());
        List<HttpResponse<String>> responses = get(p.uri(), 9);
        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(200);
        // Requests 1, 4 and 7 start at b and fall back to c; the third 503 in a row ejects b.
        assertThat(b.served()).isEqualTo(3);
        assertThat(responses.get(1).headers().firstValue("X-Outlier-Lab-Upstream"))
                .hasValue("c");
        assertThat(responses.get(8).headers().firstValue("X-Outlier-Lab-Stage")).hasValue("eject b");
        assertThat(responses.get(8).body())
                .isEqualTo(
                        "b"
                                        .equals(responses
                                                .get(8)
                                                .headers()
                                                .firstValue("X-Outlier-Lab-Upstream")
                                                .orElse(""))
                                ? "b\n"
                                : responses.get(8).body());
        String stats = stats(p.uri());
        String proxy = "envoy_cluster_name=\"proxy\",profile=\"gateway\"";
        assertThat(stats)
                .contains(
                        "envoy_cluster_outlier_detection_host_ejected{" + proxy + ",endpoint=\"b\"} 1",
                        "envoy_cluster_outlier_detection_host_ejected{" + proxy + ",endpoint=\"a\"} 0",
                        "envoy_cluster_outlier_detection_ejections_consecutive_total{" + proxy + "} 1",
                        "outlier_lab_mode{" + proxy + ",mode=\"prod\"} 1");
        assertThat(Files.readAllLines(stages))
                .last()
                .asString()
                .matches("\\{\"time\": [0-9.]+, \"request\": 8, \"pool\": \"proxy\", \"mode\": \"prod\", "
                        + "\"action\": \"eject\", \"endpoints\": \\[\"b\"\\]\\}");

        b.healthy();
        Thread.sleep(1_100);
        List<HttpResponse<String>> after = get(p.uri(), 3);
        assertThat(after)
                .extracting(
                        r -> r.headers().firstValue("X-Outlier-Lab-Upstream").orElse(""))
                .contains("b");
        assertThat(after)
                .allSatisfy(r -> assertThat(r.headers().firstValue("X-Outlier-Lab-Stage"))
                        .isEmpty());
        p.command().stop();
        assertThat(p.exit().get(20, TimeUnit.SECONDS)).isZero();
        assertThat(p.err().toString()).isEmpty();
    }

    @Test
    void shadowNamesTheUpstreamAndRoutesUnchanged() throws Exception {
        LoopbackUpstream a = upstream("a");
        LoopbackUpstream b = upstream("b").failing(100, 503);
        Proxy p = start("--upstream", "a=" + a.uri(), "--upstream", "b=" + b.uri(), "--port", "0", "--mode", "shadow");
        List<HttpResponse<String>> responses = get(p.uri(), 10);
        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(200);
        assertThat(b.served()).isEqualTo(5);
        assertThat(responses.get(9).headers().firstValue("X-Outlier-Lab-Stage")).hasValue("would_eject b");
        assertThat(stats(p.uri()))
                .contains(
                        "outlier_lab_stage_requests_total{envoy_cluster_name=\"proxy\",profile=\"gateway\",action=\"would_eject\"}",
                        "outlier_lab_stage_requests_total{envoy_cluster_name=\"proxy\",profile=\"gateway\",action=\"eject\"} 0",
                        "mode=\"shadow\"} 1");
    }

    @Test
    void requestBodiesAreBoundedAndAnUpstreamThatNeverAnswersIsA502() throws Exception {
        LoopbackUpstream a = upstream("a").refusing();
        Proxy p = start("--upstream", "a=" + a.uri(), "--port", "0", "--fallbacks", "0");
        HttpResponse<String> big = http.send(
                HttpRequest.newBuilder(p.uri().resolve("/upload"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[(1 << 20) + 1]))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(big.statusCode()).isEqualTo(413);
        HttpResponse<String> refused =
                http.send(HttpRequest.newBuilder(p.uri().resolve("/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(502);
        assertThat(refused.body()).isEqualTo("every attempt failed: [a connect_failed]\n");
    }

    @Test
    void anAnswerOverMaxResponseBytesIsA502WithAMessage() throws Exception {
        LoopbackUpstream a = upstream("a").answeringBytes(2000, false);
        Proxy p = start("--upstream", "a=" + a.uri(), "--port", "0", "--max-response-bytes", "1999");
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(p.uri().resolve("/big")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(r.body()).isEqualTo("upstream a answered 200 with a body over the limit of 1999 bytes\n");
        a.answeringBytes(1999, false);
        HttpResponse<String> fits = http.send(
                HttpRequest.newBuilder(p.uri().resolve("/big")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(fits.statusCode()).isEqualTo(200);
        assertThat(fits.body()).hasSize(1999);
    }

    @Test
    void stageRecordsThatCannotBeWrittenAreCountedSaidAndMakeTheExitStatus2() throws Exception {
        Assumptions.assumeTrue(
                Files.isWritable(Path.of("/dev/full")) && !Files.isRegularFile(Path.of("/dev/full")),
                "needs the /dev/full device");
        LoopbackUpstream a = upstream("a");
        LoopbackUpstream b = upstream("b").failing(100, 503);
        Proxy p = start(
                "--upstream",
                "a=" + a.uri(),
                "--upstream",
                "b=" + b.uri(),
                "--port",
                "0",
                "--mode",
                "shadow",
                "--stages",
                "/dev/full");
        List<HttpResponse<String>> responses = get(p.uri(), 10);
        assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(200);
        assertThat(stats(p.uri())).containsPattern("outlier_lab_proxy_stage_records_lost\\{pool=\"proxy\"\\} [1-9]");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!p.err().toString().contains("cannot write stage records") && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(p.err().toString())
                .contains("--stages /dev/full: cannot write stage records (No space left on device)");
        p.command().stop();
        assertThat(p.exit().get(20, TimeUnit.SECONDS)).isEqualTo(2);
        assertThat(p.err().toString())
                .containsPattern("--stages /dev/full: [1-9][0-9]* stage records? could not be written");
        assertThat(Files.isRegularFile(Path.of("/dev/full")))
                .as("the device is left alone")
                .isFalse();
    }

    @Test
    void aForeignHostIsRefusedAndANonLoopbackAddressIsWarnedAbout() throws Exception {
        LoopbackUpstream a = upstream("a");
        Proxy p = start("--upstream", "a=" + a.uri(), "--port", "0", "--allow-host", "lab.test");
        String foreign =
                ReverseProxyRaw.get(p.uri().getPort(), "evil.example:" + p.uri().getPort(), "/x");
        assertThat(foreign).startsWith("HTTP/1.1 403");
        assertThat(ReverseProxyRaw.get(p.uri().getPort(), "lab.test:" + p.uri().getPort(), "/x"))
                .startsWith("HTTP/1.1 200");
        assertThat(a.served()).isEqualTo(1);
        assertThat(ProxyCommand.exposureWarning(InetAddress.getByName("192.0.2.7"), "192.0.2.7"))
                .contains("WARNING", "open relay", "/stats", "docs/limits.md");
        assertThat(ProxyCommand.exposureWarning(InetAddress.getLoopbackAddress(), "127.0.0.1"))
                .isNull();
        CliRunner.run("proxy", "--upstream", "a=http://127.0.0.1:9", "--allow-host", "evil\u001b[2J", "--port", "0")
                .assertRejected("--allow-host: \"evil\\u001b[2J\" is not a host name");
    }

    /** One GET with a chosen Host over a raw socket, the whole answer. */
    private static final class ReverseProxyRaw {
        static String get(int port, String host, String path) throws IOException {
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(10_000);
                s.getOutputStream()
                        .write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            }
        }
    }

    @Test
    void badInputIsOneMessageAndExitStatus2() {
        CliRunner.run("proxy", "--upstream", "nourl", "--port", "0")
                .assertRejected("--upstream: \"nourl\" is not NAME=URL with an http or https URL");
        CliRunner.run("proxy", "--upstream", "a=http://127.0.0.1:9", "--profile", "istio", "--port", "0")
                .assertRejected("--profile: \"istio\" is not allowed; use gateway or envoy");
        CliRunner.run("proxy", "--upstream", "a=http://127.0.0.1:9", "--set", "gateway.bucket=7s", "--port", "0")
                .assertRejected("gateway.window", "a whole number of buckets");
        CliRunner.run("proxy", "--upstream", "a=http://127.0.0.1:9", "--set", "gateway.colour=red", "--port", "0")
                .assertRejected("--set gateway.colour: unknown key 'gateway.colour'; allowed under gateway:");
        CliRunner.run("proxy", "--upstream", "a=http://127.0.0.1:9", "--max-response-bytes", "0", "--port", "0")
                .assertRejected("--max-response-bytes: 0 is not allowed; use 1 to");
        CliRunner.run("proxy", "--upstream", "a=http://127.0.0.1:9", "--threads", "0", "--port", "0")
                .assertRejected("--threads: 0 is not allowed; use 1 to 4096");
        CliRunner.run("proxy", "--upstream", "a=http://127.0.0.1:9", "--mode", "loud", "--port", "0")
                .assertRejected("--mode", "one of off, shadow, prod");
        CliRunner.run(
                        "proxy",
                        "--upstream",
                        "a=http://127.0.0.1:9",
                        "--profile",
                        "envoy",
                        "--set",
                        "outlier_detection.consecutive_5xx=-1",
                        "--port",
                        "0")
                .assertRejected("consecutive_5xx");
    }
}
