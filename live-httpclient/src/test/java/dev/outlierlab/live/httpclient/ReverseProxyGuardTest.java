package dev.outlierlab.live.httpclient;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy's hardening cases with real sockets on loopback: a page under another name (Host, Origin, {@code /stats}
 * too) is refused, a control character or a bad method gets a 400, an upstream status of 999 is a recorded
 * failure answered 502, the client's Host goes to the upstream when asked, the proxy's own byte bound fails a
 * request without recording anything against the upstream, and a client's share of the proxy is capped.
 */
class ReverseProxyGuardTest {
    private final List<AutoCloseable> open = new ArrayList<>();
    private LivePool pool;

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private long budget = 1 << 30;

    private ReverseProxy.Settings settings(int threads) {
        return settings(threads, ReverseProxy.DEFAULT_PER_CLIENT, List.of());
    }

    private ReverseProxy.Settings settings(int threads, int perClient, List<String> hosts) {
        return new ReverseProxy.Settings(threads, perClient, hosts, () -> 0, new ByteBudget(budget));
    }

    private ReverseProxy proxy(FailoverClient client, ReverseProxy.Settings settings) throws IOException {
        ReverseProxy proxy = ReverseProxy.start(client, "127.0.0.1", 0, settings);
        open.add(proxy);
        return proxy;
    }

    private FailoverClient client(long bytes, boolean forwardHost, String name, URI uri) {
        budget = bytes;
        pool = LivePoolBuilder.gateway("proxy", GatewayConfig.defaults()).build();
        FailoverClient client = FailoverClient.builder(pool)
                .attemptTimeout(Duration.ofSeconds(5))
                .fallbacks(0)
                .forwardHost(forwardHost)
                .build();
        client.addUpstream(name, uri);
        return client;
    }

    private LoopbackUpstream upstream(String name) throws IOException {
        LoopbackUpstream u = LoopbackUpstream.start(name);
        open.add(u);
        return u;
    }

    /** Sends raw bytes and returns the whole answer (the connection closed after it). */
    static String raw(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            s.getInputStream().transferTo(got);
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static String get(int port, String path, String hostAndMore) throws IOException {
        return raw(port, "GET " + path + " HTTP/1.1\r\n" + hostAndMore + "Connection: close\r\n\r\n");
    }

    @Test
    void aForeignHostOrOriginIsRefusedStatsIncluded() throws Exception {
        LoopbackUpstream a = upstream("a");
        ReverseProxy proxy = proxy(client(1 << 30, false, "a", a.uri()), settings(4));
        int port = proxy.port();
        assertThat(get(port, "/x", "Host: 127.0.0.1:" + port + "\r\n")).startsWith("HTTP/1.1 200");
        assertThat(get(port, "/x", "Host: localhost:" + port + "\r\n")).startsWith("HTTP/1.1 200");
        String rebound = get(port, "/x", "Host: evil.example:" + port + "\r\n");
        assertThat(rebound)
                .startsWith("HTTP/1.1 403")
                .contains("Host 'evil.example:" + port + "' does not name this proxy");
        assertThat(get(port, "/stats", "Host: evil.example:" + port + "\r\n")).startsWith("HTTP/1.1 403");
        assertThat(get(port, "/stats", "Host: 127.0.0.1:" + port + "\r\nOrigin: http://evil.example\r\n"))
                .startsWith("HTTP/1.1 403")
                .contains("Origin 'http://evil.example' is not this proxy");
        assertThat(raw(
                        port,
                        "POST /x HTTP/1.1\r\nHost: 127.0.0.1:" + port
                                + "\r\nOrigin: null\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"))
                .startsWith("HTTP/1.1 403");
        // RFC 9112 section 3.2: an HTTP/1.1 request without Host is a 400, from the server's parser
        assertThat(get(port, "/x", "")).as("HTTP/1.1 without Host").startsWith("HTTP/1.1 400");
        assertThat(a.served())
                .as("only the two good requests reached the upstream")
                .isEqualTo(2);
        String stats = get(port, "/stats", "Host: 127.0.0.1:" + port + "\r\nOrigin: http://127.0.0.1:" + port + "\r\n");
        assertThat(stats)
                .startsWith("HTTP/1.1 200")
                .contains("outlier_lab_proxy_refused{pool=\"proxy\",reason=\"foreign_host_or_origin\"} 4");
    }

    @Test
    void anAllowedNameIsLetIn() throws Exception {
        LoopbackUpstream a = upstream("a");
        ReverseProxy proxy = proxy(client(1 << 30, false, "a", a.uri()), settings(4, 8, List.of("lab.internal")));
        assertThat(get(proxy.port(), "/x", "Host: lab.internal:" + proxy.port() + "\r\n"))
                .startsWith("HTTP/1.1 200");
        assertThat(get(proxy.port(), "/x", "Host: lab.internal.evil:" + proxy.port() + "\r\n"))
                .startsWith("HTTP/1.1 403");
    }

    @Test
    void aControlCharacterOrABadMethodIsA400() throws Exception {
        LoopbackUpstream a = upstream("a");
        ReverseProxy proxy = proxy(client(1 << 30, false, "a", a.uri()), settings(4));
        String host = "Host: 127.0.0.1:" + proxy.port() + "\r\n";
        // both refused by the server's parser (RFC 9110 section 5.5 and 9.1), before the proxy's guard
        assertThat(raw(proxy.port(), "GET /x HTTP/1.1\r\n" + host + "X-A: a\u0001b\r\nConnection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 400")
                .contains("Illegal character CNTL=0x1");
        assertThat(raw(proxy.port(), "G(T /x HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n"))
                .startsWith("HTTP/1.1 400");
        assertThat(a.served()).isZero();
        assertThat(get(proxy.port(), "/stats", host))
                .contains("outlier_lab_proxy_refused{pool=\"proxy\",reason=\"malformed\"} 2");
    }

    @Test
    void aStatusOfNineHundredNinetyNineIsARecordedFailureAnswered502() throws Exception {
        try (ServerSocket upstream = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(
                    () -> answerOnce(upstream, "HTTP/1.1 999 Request denied\r\nContent-Length: 2\r\n\r\nno"));
            t.setDaemon(true);
            t.start();
            ReverseProxy proxy = proxy(
                    client(1 << 30, false, "linkedin", URI.create("http://127.0.0.1:" + upstream.getLocalPort())),
                    settings(4));
            String answer = get(proxy.port(), "/x", "Host: 127.0.0.1:" + proxy.port() + "\r\n");
            assertThat(answer)
                    .startsWith("HTTP/1.1 502")
                    .contains("upstream linkedin answered with status 999, which is not an HTTP status");
            assertThat(pool.snapshot().counters().applied()).isEqualTo(1);
            assertThat(pool.snapshot().endpoints().get(0).consecutiveFailures()).isEqualTo(1);
            t.join(5000);
        }
    }

    @Test
    void theClientsHostGoesToTheUpstreamWhenAsked() throws Exception {
        try (ServerSocket upstream = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            StringBuilder seen = new StringBuilder();
            Thread t = new Thread(
                    () -> seen.append(answerOnce(upstream, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")));
            t.setDaemon(true);
            t.start();
            ReverseProxy proxy = proxy(
                    client(1 << 30, true, "a", URI.create("http://127.0.0.1:" + upstream.getLocalPort())), settings(4));
            String host = "localhost:" + proxy.port();
            assertThat(get(proxy.port(), "/x", "Host: " + host + "\r\n")).startsWith("HTTP/1.1 200");
            t.join(5000);
            assertThat(seen.toString().toLowerCase(Locale.ROOT)).contains("\r\nhost: " + host + "\r\n");
        }
    }

    @Test
    void theProxysOwnByteBoundFailsARequestWithoutRecordingTheUpstream() throws Exception {
        LoopbackUpstream big = upstream("big").answeringBytes(512 * 1024, false);
        ReverseProxy proxy = proxy(client(256 * 1024, false, "big", big.uri()), settings(4));
        String answer = get(proxy.port(), "/x", "Host: 127.0.0.1:" + proxy.port() + "\r\n");
        assertThat(answer)
                .startsWith("HTTP/1.1 503")
                .contains("proxy busy", "nothing is recorded against the upstream");
        assertThat(pool.snapshot().counters().accepted()).isZero();
        assertThat(proxy.counters().ownFailures()).isEqualTo(1);
        assertThat(get(proxy.port(), "/stats", "Host: 127.0.0.1:" + proxy.port() + "\r\n"))
                .contains(
                        "outlier_lab_proxy_own_failures{pool=\"proxy\"} 1",
                        "outlier_lab_proxy_answer_bytes_held{pool=\"proxy\"} 0");
    }

    @Test
    void theProcesssOwnOutOfMemoryErrorIsItsOwnFailureNotTheUpstreams() {
        // an OutOfMemoryError while an answer is read reaches the call wrapped; it must not count as a reset
        ProxyOverloadedException own =
                FailoverCall.ownFailure(new IOException("body failed", new OutOfMemoryError("Java heap space")));
        assertThat(own).isNotNull();
        assertThat(own.getMessage()).contains("out of memory", "nothing is recorded against the upstream");
        assertThat(FailoverCall.ownFailure(new IOException("connection reset"))).isNull();
    }

    @Test
    void aClientsShareOfTheProxyIsCapped() throws Exception {
        LoopbackUpstream slow = upstream("slow").delaying(1500);
        ReverseProxy proxy = proxy(client(1 << 30, false, "slow", slow.uri()), settings(8, 2, List.of()));
        List<Socket> waiting = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Socket s = new Socket("127.0.0.1", proxy.port());
            open.add(s);
            s.getOutputStream()
                    .write(("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            waiting.add(s);
        }
        Thread.sleep(300);
        assertThat(get(proxy.port(), "/x", "Host: 127.0.0.1\r\n")).startsWith("HTTP/1.1 429");
        for (Socket s : waiting) {
            s.setSoTimeout(10_000);
            assertThat(new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
                    .isEqualTo("HTTP/1.1 200");
        }
        assertThat(get(proxy.port(), "/x", "Host: 127.0.0.1\r\n"))
                .as("the share is back")
                .startsWith("HTTP/1.1 200");
    }

    /** Reads one request's head, sends {@code answer}, returns the head. */
    private static String answerOnce(ServerSocket server, String answer) {
        try (Socket s = server.accept()) {
            s.setSoTimeout(10_000);
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                head.write(b);
            }
            OutputStream out = s.getOutputStream();
            out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return head.toString(StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }
}
