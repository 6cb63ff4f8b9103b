package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.httpclient.FailoverClient;
import dev.outlierlab.live.httpclient.LoopbackUpstream;
import dev.outlierlab.live.httpclient.ReverseProxy;
import dev.outlierlab.web.LabServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Thousands of seeded malformed and ambiguous requests ({@link MalformedRequests}) against {@code serve}'s
 * {@link LabServer} and the {@code proxy}'s {@link ReverseProxy} on loopback: each is answered with a status
 * that is not a 500 (or the connection is closed), and after every one a well-formed probe on a kept-alive
 * connection is answered. Bounded: at most 6 s of cases per server (about 1,000 to 3,000 on two busy cores).
 */
class ServeAndProxyFuzzTest {
    private static final int CASES = 3000;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(6);

    @Test
    void serveAnswersAProbeAfterEveryMalformedRequest() throws Exception {
        try (LabServer lab = LabServer.start(0)) {
            int done = fuzz(
                    lab.port(),
                    20261205L,
                    "GET /no-such-file HTTP/1.1\r\nHost: 127.0.0.1:" + lab.port() + "\r\n\r\n",
                    "HTTP/1.1 404 ");
            assertThat(done).as("cases run within the time bound").isGreaterThanOrEqualTo(200);
        }
    }

    @Test
    void proxyAnswersAProbeAfterEveryMalformedRequest() throws Exception {
        try (LoopbackUpstream upstream = LoopbackUpstream.start("a")) {
            FailoverClient client = FailoverClient.builder(LivePoolBuilder.gateway("fuzz", GatewayConfig.defaults())
                            .build())
                    .attemptTimeout(Duration.ofSeconds(2))
                    .fallbacks(0)
                    .build();
            client.addUpstream("a", upstream.uri());
            try (ReverseProxy proxy = ReverseProxy.start(client, "127.0.0.1", 0)) {
                int done = fuzz(
                        proxy.port(),
                        20261206L,
                        "GET /stats HTTP/1.1\r\nHost: 127.0.0.1:" + proxy.port() + "\r\n\r\n",
                        "HTTP/1.1 200 ");
                assertThat(done).as("cases run within the time bound").isGreaterThanOrEqualTo(200);
            }
        }
    }

    /** Runs cases until {@link #CASES} or the time bound; the number run. */
    private static int fuzz(int port, long seed, String probe, String probeAnswer) throws IOException {
        MalformedRequests requests = new MalformedRequests(seed, port);
        long start = System.nanoTime();
        Socket prober = connect(port);
        int n = 0;
        try {
            for (; n < CASES && System.nanoTime() - start < BUDGET_NANOS; n++) {
                byte[] request = requests.next();
                String answer = send(port, request);
                if (!answer.isEmpty()) {
                    assertThat(answer)
                            .as("case %d of seed %d: %s", n, seed, shown(request))
                            .startsWith("HTTP/1.1 ")
                            .doesNotStartWith("HTTP/1.1 500");
                }
                String probed;
                try {
                    probed = probe(prober, probe);
                } catch (IOException closed) {
                    prober.close();
                    prober = connect(port);
                    probed = probe(prober, probe);
                }
                assertThat(probed)
                        .as("the probe after case %d of seed %d: %s", n, seed, shown(request))
                        .startsWith(probeAnswer);
            }
        } finally {
            prober.close();
        }
        return n;
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        s.setSoTimeout(2000);
        return s;
    }

    /** Sends {@code request}, closes the sending side and reads what comes back within 2 s. */
    private static String send(int port, byte[] request) throws IOException {
        try (Socket s = connect(port)) {
            try {
                s.getOutputStream().write(request);
                s.shutdownOutput();
            } catch (IOException closedEarly) {
                // the server refused the head before the client finished writing it
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            try {
                InputStream in = s.getInputStream();
                for (int r; (r = in.read(buf)) > 0 && got.size() < 1 << 20; ) {
                    got.write(buf, 0, r);
                }
            } catch (SocketTimeoutException | SocketException ended) {
                // no more
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** One keep-alive request and its answer, read by its Content-Length. */
    private static String probe(Socket s, String probe) throws IOException {
        s.getOutputStream().write(probe.getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("closed");
            }
            head.append((char) c);
        }
        String lower = head.toString().toLowerCase(Locale.ROOT);
        int at = lower.indexOf("content-length:");
        if (at >= 0) {
            int n = Integer.parseInt(
                    lower.substring(at + 15, lower.indexOf("\r\n", at)).trim());
            in.readNBytes(n);
        }
        return head.toString();
    }

    private static String shown(byte[] request) {
        String s = new String(request, StandardCharsets.ISO_8859_1);
        s = s.length() > 200 ? s.substring(0, 200) + "..." : s;
        return s.replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0");
    }
}
