package dev.outlierlab.httpserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The server over real sockets on loopback: keep-alive and pipelined requests, bodies by length and in chunks,
 * the three ways to frame an answer, heads that are too large or ambiguous, and the deadlines: a client sending
 * its headers byte by byte holds no worker and is closed at the request time, and one that does not take its
 * answer is closed at the answer time.
 */
class BoundedHttpServerTest {
    private static final long SECOND = 1_000_000_000L;
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

    /** A server whose handler answers {@code method path body} (the body read in full), on {@code threads}. */
    private BoundedHttpServer echo(int threads, ServerLimits limits) throws IOException {
        server = BoundedHttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64, limits);
        pool = Executors.newFixedThreadPool(threads);
        server.setExecutor(pool);
        server.createContext("/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            String path = ex.getRequestURI().getPath();
            byte[] answer = (ex.getRequestMethod() + " " + path + " " + new String(body, StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            if (path.equals("/slow")) {
                try {
                    Thread.sleep(2500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (path.equals("/chunked")) {
                ex.sendResponseHeaders(200, 0);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(answer, 0, 3);
                    out.flush();
                    out.write(answer, 3, answer.length - 3);
                }
            } else if (path.equals("/empty")) {
                ex.sendResponseHeaders(204, -1);
                ex.close();
            } else {
                ex.getResponseHeaders().set("Content-Type", "text/plain");
                ex.sendResponseHeaders(200, ex.getRequestMethod().equals("HEAD") ? -1 : answer.length);
                try (OutputStream out = ex.getResponseBody()) {
                    if (!ex.getRequestMethod().equals("HEAD")) {
                        out.write(answer);
                    }
                }
            }
        });
        server.start();
        return server;
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", server.getAddress().getPort()), 2000);
        s.setSoTimeout(5000);
        return s;
    }

    private static void send(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    /** Reads one answer: its head and a body framed by Content-length, chunks, or none. */
    private static String answer(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return head.length() == 0 ? null : head.toString();
            }
            head.append((char) c);
        }
        String h = head.toString();
        String lower = h.toLowerCase(Locale.ROOT);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (lower.contains("transfer-encoding: chunked")) {
            while (true) {
                StringBuilder size = new StringBuilder();
                for (int c; (c = in.read()) != '\n'; ) {
                    size.append((char) c);
                }
                int n = Integer.parseInt(size.toString().trim(), 16);
                body.write(in.readNBytes(n));
                in.readNBytes(2);
                if (n == 0) {
                    break;
                }
            }
        } else {
            int at = lower.indexOf("content-length: ");
            if (at >= 0 && !h.startsWith("HTTP/1.1 204") && !h.contains("HEAD")) {
                int n = Integer.parseInt(
                        lower.substring(at + 16, lower.indexOf("\r\n", at)).trim());
                body.write(in.readNBytes(n));
            }
        }
        return h + body.toString(StandardCharsets.UTF_8);
    }

    @Test
    void keepAlivePipelinedAndChunkedRequestsAreAnsweredInOrderOnOneConnection() throws Exception {
        echo(2, ServerLimits.defaults());
        try (Socket s = connect()) {
            InputStream in = s.getInputStream();
            send(s, "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
            assertThat(answer(in)).startsWith("HTTP/1.1 200 OK\r\n").endsWith("POST /a hello");
            // two requests in one write: a chunked body, then a GET
            send(
                    s,
                    "POST /b HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"
                            + "GET /c HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(answer(in)).endsWith("POST /b abcde");
            assertThat(answer(in)).endsWith("GET /c ");
            send(s, "GET /chunked HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(answer(in))
                    .containsIgnoringCase("Transfer-encoding: chunked")
                    .endsWith("GET /chunked ");
            send(s, "HEAD /h HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(answer(in))
                    .startsWith("HTTP/1.1 200")
                    .containsIgnoringCase("Content-length: 0")
                    .endsWith("\r\n\r\n");
            send(s, "GET /empty HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(answer(in)).startsWith("HTTP/1.1 204 No Content\r\n").doesNotContain("Content-length");
            assertThat(in.read()).as("closed after Connection: close").isEqualTo(-1);
        }
    }

    @Test
    void aPipelinedRequestStillBeingHandledIsNotTakenForAnIdleConnection() throws Exception {
        // idle and request times of 1 s: the second request is handled for 2.5 s, which is neither
        echo(1, new ServerLimits(64, 512, SECOND, 30 * SECOND, SECOND, 200, 64 * 1024));
        for (int round = 0; round < 3; round++) {
            try (Socket s = connect()) {
                InputStream in = s.getInputStream();
                send(s, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(answer(in)).endsWith("GET /a ");
                assertThat(answer(in))
                        .as("round %d: the answer of the request being handled when the first one ended", round)
                        .endsWith("GET /slow ");
            }
        }
    }

    @Test
    void anOversizeOrAmbiguousHeadIsRefusedAndClosed() throws Exception {
        echo(2, ServerLimits.defaults());
        try (Socket s = connect()) {
            // a head that does not end within 64 KiB (the client stops after 66 KiB and waits)
            send(s, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(66 * 1024));
            String a = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(a).startsWith("HTTP/1.1 431 ").contains("over 65536 bytes");
        }
        try (Socket s = connect()) {
            send(s, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
            String a = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(a).startsWith("HTTP/1.1 400 ").contains("Transfer-Encoding and Content-Length");
        }
        try (Socket s = connect()) {
            send(s, "GET /a b HTTP/1.1\r\n\r\n");
            assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .startsWith("HTTP/1.1 400 ")
                    .contains("Illegal character");
        }
    }

    @Test
    void headersSentByteByByteHoldNoWorkerAndAreClosedAtTheRequestTime() throws Exception {
        // one worker only: while a client sends its headers byte by byte, another is answered at once
        echo(1, new ServerLimits(64, 512, SECOND, 30 * SECOND, 30 * SECOND, 200, 64 * 1024));
        try (Socket slow = connect();
                Socket other = connect()) {
            long start = System.nanoTime();
            boolean closed = false;
            for (int i = 0; i < 40 && !closed; i++) {
                try {
                    send(slow, "G");
                } catch (IOException e) {
                    closed = true;
                }
                if (i == 3) {
                    send(other, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertThat(answer(other.getInputStream())).endsWith("GET /other ");
                }
                Thread.sleep(100);
                slow.setSoTimeout(1);
                try {
                    closed = slow.getInputStream().read() == -1;
                } catch (SocketTimeoutException stillOpen) {
                    // still reading its head
                } catch (IOException reset) {
                    closed = true;
                }
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(closed).as("closed at the request time").isTrue();
            assertThat(millis).isBetween(900L, 3500L);
        }
    }

    @Test
    void anAnswerNotTakenIsClosedAtTheAnswerTime() throws Exception {
        server = BoundedHttpServer.create(
                new InetSocketAddress("127.0.0.1", 0),
                64,
                new ServerLimits(64, 512, 3 * SECOND, SECOND, 30 * SECOND, 200, 64 * 1024));
        pool = Executors.newFixedThreadPool(1);
        server.setExecutor(pool);
        AtomicReference<Throwable> writeFailed = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        server.createContext("/", (HttpExchange ex) -> {
            byte[] block = new byte[1 << 20];
            ex.sendResponseHeaders(200, 64L << 20);
            try (OutputStream out = ex.getResponseBody()) {
                for (int i = 0; i < 64; i++) {
                    out.write(block);
                }
            } catch (IOException e) {
                writeFailed.set(e);
                throw e;
            } finally {
                done.countDown();
            }
        });
        server.start();
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(server.getAddress(), 2000);
            send(s, "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            long start = System.nanoTime();
            assertThat(done.await(10, TimeUnit.SECONDS))
                    .as("the writer was stopped")
                    .isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(800L, 5000L);
            assertThat(writeFailed.get()).isInstanceOf(IOException.class);
        }
    }

    @Test
    void connectionsPastAClientsShareAreClosedAtOnceAndTheTotalMakesRoomForNewcomers() throws Exception {
        echo(2, new ServerLimits(3, 5, 3 * SECOND, 30 * SECOND, 30 * SECOND, 200, 64 * 1024));
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {
                held.add(connect());
                Thread.sleep(20);
            }
            Thread.sleep(300);
            assertThat(server.openConnections()).isEqualTo(3);
            assertThat(server.refusedConnections()).isEqualTo(3);
            assertThat(readOrReset(held.get(3))).as("past the share: closed").isEqualTo(-1);
            // other client addresses still get in: two fill the total of 5, the third closes the connection that
            // has waited longest for its request (127.0.0.1's first) to make room
            for (int n = 2; n <= 4; n++) {
                held.add(from(n));
                held.get(held.size() - 1).connect(server.getAddress(), 2000);
                Thread.sleep(50);
            }
            Thread.sleep(300);
            assertThat(server.openConnections()).isEqualTo(5);
            assertThat(server.refusedConnections()).isEqualTo(3);
            assertThat(server.evictedConnections()).isEqualTo(1);
            assertThat(readOrReset(held.get(0)))
                    .as("the longest waiting, closed to make room")
                    .isEqualTo(-1);
            Socket second = held.get(1);
            send(second, "GET /still HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(answer(second.getInputStream())).endsWith("GET /still ");
            Socket newest = held.get(held.size() - 1);
            newest.setSoTimeout(5000);
            send(newest, "GET /newcomer HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(answer(newest.getInputStream())).endsWith("GET /newcomer ");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static Socket from(int n) throws IOException {
        Socket s = new Socket();
        try {
            s.bind(new InetSocketAddress("127.0.0." + n, 0));
        } catch (IOException e) {
            s.close();
            Assumptions.abort("cannot bind 127.0.0." + n + ": " + e.getMessage());
        }
        return s;
    }

    private static int readOrReset(Socket s) throws IOException {
        s.setSoTimeout(2000);
        try {
            return s.getInputStream().read();
        } catch (SocketTimeoutException e) {
            return 0;
        } catch (IOException reset) {
            return -1;
        }
    }
}
