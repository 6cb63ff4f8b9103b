package dev.outlierlab.httpserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Refused heads (a head over the size limit, answered 431 and closed) must leave every other connection alone:
 * a request on a kept-alive connection right after each one is answered as its own. Jetty may run a refused
 * connection's read loop twice at once (see {@link BoundedHttpServer}), so no buffer it releases may be handed to
 * another connection.
 */
class RefusedHeadTest {
    private BoundedHttpServer server;
    private ExecutorService pool;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
        if (pool != null) {
            pool.shutdownNow();
        }
    }

    @Test
    void aBufferJettyReleasesIsNeverHandedOutAgain() throws IOException {
        server = BoundedHttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64, ServerLimits.defaults());
        ByteBufferPool buffers = server.buffers();
        for (boolean direct : new boolean[] {false, true}) {
            RetainableByteBuffer first = buffers.acquire(8192, direct);
            ByteBuffer firstBytes = first.getByteBuffer();
            firstBytes.clear();
            firstBytes.put("Host: 127.0.0.1:8080".getBytes(StandardCharsets.US_ASCII));
            assertThat(first.release()).isTrue();
            RetainableByteBuffer second = buffers.acquire(8192, direct);
            ByteBuffer secondBytes = second.getByteBuffer();
            // a buffer still written through a stale reference after its release must not be this one
            firstBytes.clear();
            firstBytes.put("XXXXXXXX".getBytes(StandardCharsets.US_ASCII));
            secondBytes.clear();
            assertThat(secondBytes).as("direct=%s", direct).isNotSameAs(firstBytes);
            assertThat(secondBytes.get(0)).as("direct=%s", direct).isZero();
            second.release();
        }
    }

    @Test
    void onlyTheMeasuringSwitchGivesJettysPoolWhichHandsAReleasedBufferOutAgain() throws IOException {
        System.setProperty(BoundedHttpServer.POOLED_BUFFERS_PROPERTY, "true");
        try {
            server = BoundedHttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64, ServerLimits.defaults());
        } finally {
            System.clearProperty(BoundedHttpServer.POOLED_BUFFERS_PROPERTY);
        }
        ByteBufferPool buffers = server.buffers();
        assertThat(buffers).isNotSameAs(ByteBufferPool.NON_POOLING);
        RetainableByteBuffer first = buffers.acquire(8192, false);
        ByteBuffer firstBytes = first.getByteBuffer();
        assertThat(first.release()).isTrue();
        RetainableByteBuffer second = buffers.acquire(8192, false);
        // what the default setup prevents: the released buffer is the next one handed out
        assertThat(second.getByteBuffer()).isSameAs(firstBytes);
        second.release();
        server.stop(0);
        server = BoundedHttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64, ServerLimits.defaults());
        assertThat(server.buffers()).isSameAs(ByteBufferPool.NON_POOLING);
    }

    @Test
    void aKeptAliveConnectionIsAnsweredRightAfterEveryOversizedHead() throws Exception {
        server = BoundedHttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64, ServerLimits.defaults());
        pool = Executors.newFixedThreadPool(2);
        server.setExecutor(pool);
        server.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            byte[] body = ("Not found: " + ex.getRequestURI().getPath() + "\n").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(404, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        int port = server.getAddress().getPort();
        String host = "Host: 127.0.0.1:" + port + "\r\n";
        int cases = 200;
        try (Socket probe = connect(port)) {
            for (int n = 0; n < cases; n++) {
                // the head goes over 64 KiB in a header before Host, as in the fuzz case that found this
                String big = "POST /api/scenario HTTP/1.1\r\nX-Big: " + "a".repeat(66 * 1024 + (n * 37) % 1024) + "\r\n"
                        + host + "Content-Length: 18\r\n\r\n{\"duration\": \"5s\"}";
                String refused = sendUntilClosed(port, big);
                assertThat(refused).as("case %d", n).startsWith("HTTP/1.1 431 ").contains("over 65536 bytes");
                probe.getOutputStream()
                        .write(("GET /no-such-file-" + n + " HTTP/1.1\r\n" + host + "\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                assertThat(answer(probe.getInputStream()))
                        .as("the probe after case %d, on one kept-alive connection", n)
                        .startsWith("HTTP/1.1 404 ")
                        .endsWith("\r\n\r\nNot found: /no-such-file-" + n + "\n");
            }
        }
        assertThat(server.malformedRequests()).isEqualTo(cases);
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    /** Sends {@code request} on a connection of its own and reads until the server closes it. */
    private static String sendUntilClosed(int port, String request) throws IOException {
        try (Socket s = connect(port)) {
            try {
                s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
                s.shutdownOutput();
            } catch (IOException refusedEarly) {
                // the server answered and closed before the whole head was written
            }
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                s.getInputStream().transferTo(got);
            } catch (SocketException reset) {
                // closed with unread bytes: the answer read so far is all there is
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** One answer framed by its Content-Length. */
    private static String answer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int c = in.read();
            if (c < 0) {
                return "closed after: " + head;
            }
            head.append((char) c);
        }
        String lower = head.toString().toLowerCase(Locale.ROOT);
        int at = lower.indexOf("\r\ncontent-length:");
        int length = at < 0
                ? 0
                : Integer.parseInt(
                        lower.substring(at + 17, lower.indexOf("\r\n", at + 2)).trim());
        return head + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }
}
