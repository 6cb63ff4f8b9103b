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
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Thousands of seeded malformed and ambiguous requests ({@link MalformedRequests}) against {@code serve}'s
 * {@link LabServer} and the {@code proxy}'s {@link ReverseProxy} on loopback: each is answered with a status
 * that is not a 500 (or the connection is closed), and after every one a well-formed probe on a kept-alive
 * connection gets its own answer ({@link Prober}). Each case is finished before the probe is sent: its
 * connection is read until the server closes it, so a server slowed by a busy machine never answers a case
 * while the probe is in flight, and a case or probe not answered within {@link #ANSWER_MILLIS} fails with its
 * case instead of being skipped. Bounded: the first {@link #MIN_CASES} cases always run, then more for at most
 * 6 s per server (from about 250 on two cores shared with other work to 3,000 on quiet ones).
 */
class ServeAndProxyFuzzTest {
    private static final int CASES = 3000;
    /** Run however slow the machine is; the time bound only decides how many more. */
    private static final int MIN_CASES = 50;

    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(6);
    /** The most one answer may take on a machine stalled by other work before its case fails. */
    static final int ANSWER_MILLIS = 10_000;

    @Test
    void serveAnswersAProbeAfterEveryMalformedRequest() throws Exception {
        try (LabServer lab = LabServer.start(0)) {
            String host = "Host: 127.0.0.1:" + lab.port() + "\r\n";
            // a path of its own per probe: the 404 names it, so an answer meant for another request shows
            int done = fuzz(
                    lab.port(),
                    20261205L,
                    n -> "GET /no-such-file-" + n + " HTTP/1.1\r\n" + host + "\r\n",
                    n -> "HTTP/1.1 404 ",
                    n -> "\r\n\r\nNot found: /no-such-file-" + n + "\n");
            assertThat(done).as("cases run").isGreaterThanOrEqualTo(MIN_CASES);
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
                String host = "Host: 127.0.0.1:" + proxy.port() + "\r\n";
                int done = fuzz(
                        proxy.port(),
                        20261206L,
                        n -> "GET /stats HTTP/1.1\r\n" + host + "\r\n",
                        n -> "HTTP/1.1 200 ",
                        n -> "\r\n\r\n# HELP envoy_cluster_outlier_detection_ejections_active ");
                assertThat(done).as("cases run").isGreaterThanOrEqualTo(MIN_CASES);
            }
        }
    }

    /**
     * Runs cases until {@link #CASES}, or past {@link #MIN_CASES} until the time bound; the number run. The probe
     * after case {@code n} is {@code probe(n)}; its answer must start with {@code status(n)} and contain
     * {@code body(n)}.
     */
    private static int fuzz(
            int port, long seed, IntFunction<String> probe, IntFunction<String> status, IntFunction<String> body)
            throws IOException {
        MalformedRequests requests = new MalformedRequests(seed, port);
        long start = System.nanoTime();
        int n = 0;
        try (Prober prober = new Prober(port)) {
            for (; n < CASES && (n < MIN_CASES || System.nanoTime() - start < BUDGET_NANOS); n++) {
                byte[] request = requests.next();
                String what = "case " + n + " of seed " + seed + ": " + shown(request);
                String answer = sendUntilClosed(port, request, what);
                if (!answer.isEmpty()) {
                    assertThat(answer).as(what).startsWith("HTTP/1.1 ").doesNotContain("HTTP/1.1 500 ");
                }
                String probed = prober.ask(probe.apply(n), "the probe after " + what);
                assertThat(probed)
                        .as(
                                "the probe after %s, which was answered %s; the probe was %s",
                                what, shown(answer), prober.describe())
                        .startsWith(status.apply(n))
                        .contains(body.apply(n));
            }
        }
        return n;
    }

    /**
     * Sends {@code request} on a connection of its own, closes the sending side and reads until the server
     * closes the connection (or resets it): the server is done with the case before the probe. An answer
     * neither finished nor closed within {@link #ANSWER_MILLIS} fails the case.
     */
    private static String sendUntilClosed(int port, byte[] request, String what) throws IOException {
        try (Socket s = Prober.connect(port)) {
            try {
                s.getOutputStream().write(request);
                s.shutdownOutput();
            } catch (IOException closedEarly) {
                // the server refused the head before the client finished writing it
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            byte[] buf = new byte[8192];
            long since = System.nanoTime();
            try {
                InputStream in = s.getInputStream();
                for (int r; (r = in.read(buf)) >= 0; ) {
                    got.write(buf, 0, r);
                    assertThat(got.size()).as("bytes of the answer to %s", what).isLessThan(1 << 20);
                }
            } catch (SocketTimeoutException late) {
                throw new AssertionError("the server neither answered nor closed the connection within "
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since) + " ms of " + what
                        + "; got so far: " + shown(got.toByteArray()));
            } catch (SocketException reset) {
                // the server reset the connection: it is done with it, having answered or not
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    static String shown(String s) {
        return shown(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    static String shown(byte[] request) {
        String s = new String(request, StandardCharsets.ISO_8859_1);
        s = s.length() > 300 ? s.substring(0, 300) + "..." : s;
        return "\"" + s.replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0") + "\"";
    }
}
