package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.web.RawHttp.Answer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server under attack, over real sockets on loopback: half-sent requests, foreign Origin and Host, a
 * text/plain POST, a run stopped at its deadline (its answer already streaming, so a 200 whose body is the
 * error) and more runs than may wait. Each gets its answer, and a
 * probe (GET /api/settings) is answered within a second throughout. The server's limits are raised so that
 * a long run can be asked for; its deadline is short so that the test is.
 */
class LabServerHardeningTest {
    private static final long DEADLINE_MILLIS = 1500;
    /** A run of two billion requests: far longer than the deadline. */
    /**
     * Two billion requests, every one failing, walked one by one (Poisson arrivals take the per-request path): far
     * longer than any deadline here, whatever the event-driven path makes cheap (with even arrivals the fold of
     * failures runs it in a few seconds, and it could end before the 6 s deadline of the waiting-runs test).
     */
    private static final String LONG_RUN = "{\"duration\": \"2000s\", "
            + "\"traffic\": {\"rps\": 1000000, \"arrivals\": \"poisson\"}, "
            + "\"faults\": [{\"hosts\": [\"host-0\", \"host-1\", \"host-2\", \"host-3\", \"host-4\", \"host-5\"], "
            + "\"start\": \"0s\", \"end\": \"2000s\", \"error_rate\": 1}]}";

    private static final SimulationLimits GENEROUS =
            new SimulationLimits(64 * 1024, 1_000, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, 100, Long.MAX_VALUE);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static LabServer server;

    @BeforeAll
    static void start() throws IOException {
        server = LabServer.start(
                new LabServer.Options("127.0.0.1", 0, 128, 64, 2, GENEROUS, Duration.ofMillis(DEADLINE_MILLIS)));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void halfSentRequestsDoNotStallTheServerAndAreClosedAtTheRequestTimeout() throws Exception {
        List<Socket> slow = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            Socket s = new Socket();
            s.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000);
            s.getOutputStream().write("GET /api/settings HT".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            slow.add(s);
        }
        long timeoutMillis = LabServer.REQUEST_SECONDS * 1000L;
        long start = System.nanoTime();
        while (millisSince(start) < 1500) {
            assertProbeAnswered();
            Thread.sleep(200);
        }
        for (Socket s : slow) {
            s.setSoTimeout((int) (timeoutMillis + 3000));
            assertThat(s.getInputStream().read())
                    .as("the server closes a request that never arrives")
                    .isEqualTo(-1);
            s.close();
        }
        assertThat(millisSince(start)).isGreaterThanOrEqualTo(timeoutMillis - 1000);
        assertProbeAnswered();
    }

    @Test
    void fourHundredHalfSentRequestsHoldNoWorkerAndAreClosedWithinTheRequestTime() throws Exception {
        // issue 27: 200 such connections left serve answering 0 of 26 probes. Headers are read off the worker
        // pool, so 400 of them (from eight client addresses, 50 each: within every share) leave a server of only
        // 4 workers answering every probe at once, and each is closed at the request time.
        try (LabServer lab = LabServer.start(
                new LabServer.Options("127.0.0.1", 0, 4, 64, 2, SimulationLimits.DEFAULT, Duration.ofSeconds(20)))) {
            List<Socket> slow = new ArrayList<>();
            try {
                // a first request, before, so that the first probe measured is not cold
                assertThat(exchange(lab, RawHttp.get(lab.port(), "/api/settings"))
                                .status())
                        .isEqualTo(200);
                for (int i = 0; i < 400; i++) {
                    Socket s = from(2 + i % 8);
                    slow.add(s);
                    s.connect(new InetSocketAddress("127.0.0.1", lab.port()), 2000);
                    s.getOutputStream().write("GET /api/settings HT".getBytes(StandardCharsets.US_ASCII));
                }
                for (int i = 0; i < 26; i++) {
                    assertProbeAnswered(lab, 2000); // far below the 3 s a probe waiting for a worker would take
                }
                long start = System.nanoTime();
                for (Socket s : slow) {
                    s.setSoTimeout(8000);
                    assertThat(s.getInputStream().read())
                            .as("closed by the server")
                            .isEqualTo(-1);
                }
                assertThat(millisSince(start)).isLessThan((LabServer.REQUEST_SECONDS + 3) * 1000L);
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    @Test
    void oneClientOpeningMoreThanItsShareCannotStarveAnother() throws Exception {
        // 127.0.0.2 opens 600 connections and sends nothing: the server keeps 64 (its share) and closes the other
        // 536 at once; 127.0.0.3 is answered throughout
        try (LabServer lab = LabServer.start(LabServer.Options.of("127.0.0.1", 0))) {
            List<Socket> greedy = new ArrayList<>();
            try {
                long opening = System.nanoTime();
                for (int i = 0; i < 600; i++) {
                    Socket s = from(2);
                    greedy.add(s);
                    s.connect(new InetSocketAddress("127.0.0.1", lab.port()), 2000);
                    if (i % 50 == 49) {
                        assertThat(lab.openConnections())
                                .as("open after %d", i + 1)
                                .isLessThanOrEqualTo(LabServer.DEFAULT_CLIENT_CONNECTIONS);
                    }
                }
                long heldWindows = 1 + millisSince(opening) / (LabServer.REQUEST_SECONDS * 1000L);
                for (int i = 0; i < 20; i++) {
                    long start = System.nanoTime();
                    try (Socket other = from(3)) {
                        other.connect(new InetSocketAddress("127.0.0.1", lab.port()), 2000);
                        other.setSoTimeout(2000);
                        other.getOutputStream()
                                .write(RawHttp.get(lab.port(), "/api/settings").getBytes(StandardCharsets.US_ASCII));
                        assertThat(new String(other.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
                                .as("request %d of another client", i)
                                .isEqualTo("HTTP/1.1 200");
                    }
                    assertThat(millisSince(start)).as("answered at once").isLessThan(2000);
                }
                // 64 are held at a time, each until its first-byte time of 3 s: all the others were closed at once
                assertThat(lab.refusedConnections())
                        .isGreaterThanOrEqualTo(600 - heldWindows * LabServer.DEFAULT_CLIENT_CONNECTIONS);
            } finally {
                for (Socket s : greedy) {
                    s.close();
                }
            }
        }
    }

    @Test
    void slowClientsFillingEveryConnectionCannotKeepAProbeOut() throws Exception {
        // 512 half-sent requests from eight addresses (64 each: every share full) fill the total; each probe
        // closes the connection that has waited longest for its request and is answered
        try (LabServer lab = LabServer.start(LabServer.Options.of("127.0.0.1", 0))) {
            assertThat(exchange(lab, RawHttp.get(lab.port(), "/api/settings")).status())
                    .isEqualTo(200);
            List<Socket> slow = new ArrayList<>();
            try {
                for (int i = 0; i < LabServer.MAX_CONNECTIONS; i++) {
                    Socket s = from(2 + i % 8);
                    slow.add(s);
                    s.connect(new InetSocketAddress("127.0.0.1", lab.port()), 2000);
                    s.getOutputStream().write("GET /api/settings HT".getBytes(StandardCharsets.US_ASCII));
                }
                for (int i = 0; i < 26; i++) {
                    assertProbeAnswered(lab, 2000);
                }
                assertThat(lab.openConnections()).isLessThanOrEqualTo(LabServer.MAX_CONNECTIONS);
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    /** A socket from {@code 127.0.0.N} (all of 127.0.0.0/8 is loopback on Linux); skipped where it cannot be bound. */
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

    @Test
    void aHugeExponentIsA400WithAShortMessageAndTheServerKeepsServing() throws Exception {
        // issue 27: 34 bytes took the server to 4.6 GB and could answer with a 1 GB error body
        for (String body : new String[] {
            "{\"envoy_version\":1e1000000000}",
            "{\"envoy_version\":\"1e1000000000\"}",
            "{\"duration\":1e1000000000}",
            "{\"traffic\":{\"rps\":1e1000000000}}"
        }) {
            Answer a = exchange(post("/api/run", "application/json", body, ""));
            assertThat(a.status()).as(body + " -> " + a.body()).isEqualTo(400);
            assertThat(a.body().length()).as(body).isLessThan(400);
        }
        assertProbeAnswered();
    }

    @Test
    void foreignOriginIsRefused() throws Exception {
        Answer a = exchange(post("/api/run", "application/json", "{}", "Origin: http://attacker.example\r\n"));
        assertThat(a.status()).isEqualTo(403);
        assertThat(a.body()).contains("cross-origin request refused", "attacker.example");
        Answer own = exchange(post(
                "/api/run",
                "application/json",
                "{\"duration\": \"10s\"}",
                "Origin: http://127.0.0.1:" + server.port() + "\r\n"));
        assertThat(own.status()).as(own.body()).isEqualTo(200);
    }

    @Test
    void foreignHostIsRefused() throws Exception {
        Answer a = exchange("GET /api/settings HTTP/1.1\r\nHost: rebound.attacker.example:" + server.port()
                + "\r\nConnection: close\r\n\r\n");
        assertThat(a.status()).isEqualTo(403);
        assertThat(a.body()).contains("does not name this server", "http://127.0.0.1:" + server.port() + "/");
        Answer localhost = exchange(
                "GET /api/settings HTTP/1.1\r\nHost: localhost:" + server.port() + "\r\nConnection: close\r\n\r\n");
        assertThat(localhost.status()).isEqualTo(200);
    }

    @Test
    void textPlainPostIsRefused() throws Exception {
        Answer a = exchange(post("/api/run", "text/plain;charset=UTF-8", "{\"name\":\"csrf\"}", ""));
        assertThat(a.status()).isEqualTo(415);
        assertThat(a.body()).contains("application/json");
        Answer form = exchange(post("/api/scenario", "application/x-www-form-urlencoded", "name=x", ""));
        assertThat(form.status()).isEqualTo(415);
    }

    @Test
    void aLongRunIsStoppedAtItsDeadlineWhileProbesAreAnswered() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            long start = System.nanoTime();
            Future<Answer> run = pool.submit(() -> exchange(post("/api/run", "application/json", LONG_RUN, "")));
            while (!run.isDone()) {
                assertProbeAnswered();
                Thread.sleep(100);
                assertThat(millisSince(start))
                        .as("the run is stopped near its deadline")
                        .isLessThan(DEADLINE_MILLIS + 10_000);
            }
            Answer a = run.get();
            assertThat(a.status())
                    .as("the status was sent when the run had lasted 150 ms")
                    .isEqualTo(200);
            assertThat(a.chunked()).isTrue();
            assertThat(a.body()).as("spaces while the run went on").startsWith(" ");
            assertThat(MAPPER.readTree(a.body()).path("error").asText())
                    .startsWith("the run was stopped at its deadline of 1.5 s; make it smaller");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void moreThan64WaitingRunsGetA503WithAMessage() throws Exception {
        // a server of its own whose deadline outlasts the arrival of all the requests
        int requests = 80;
        // (80 requests and the probes from one client address: its share of connections is raised for this)
        try (LabServer busyServer =
                LabServer.start(new LabServer.Options("127.0.0.1", 0, 128, 64, 2, GENEROUS, Duration.ofSeconds(6))
                        .withClientConnections(256))) {
            ExecutorService pool = Executors.newFixedThreadPool(requests);
            try {
                List<Future<Answer>> answers = new ArrayList<>();
                for (int i = 0; i < requests; i++) {
                    answers.add(pool.submit(() ->
                            exchange(busyServer, post(busyServer, "/api/run", "application/json", LONG_RUN, ""))));
                }
                long start = System.nanoTime();
                while (!answers.stream().allMatch(Future::isDone)) {
                    assertProbeAnswered(busyServer);
                    Thread.sleep(100);
                    assertThat(millisSince(start)).isLessThan(40_000);
                }
                int busy = 0;
                for (Future<Answer> f : answers) {
                    Answer a = f.get();
                    if (a.body().contains("64 runs are already waiting")) {
                        assertThat(a.status()).isEqualTo(503);
                        busy++;
                    } else if (a.status() == 503) {
                        // no slot before the deadline, or a slot at its very end, the run stopped before it was
                        // streamed
                        assertThat(a.body()).containsAnyOf("no simulation slot came free", "stopped at its deadline");
                    } else {
                        assertThat(a.status())
                                .as("a run admitted and streamed, then stopped")
                                .isEqualTo(200);
                        assertThat(MAPPER.readTree(a.body()).path("error").asText())
                                .contains("stopped at its deadline");
                    }
                }
                assertThat(busy)
                        .as("2 run and 64 wait; the rest are told at once")
                        .isEqualTo(requests - 66);
            } finally {
                pool.shutdownNow();
            }
            assertProbeAnswered(busyServer);
        }
    }

    @Test
    void anOverSizeBodyGetsItsMessageBeforeTheConnectionCloses() throws Exception {
        String big = "x".repeat(1024 * 1024);
        Answer a = exchange(post("/api/run", "application/json", big, ""));
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.body()).contains("over the lab's limit of 64 KiB");
    }

    private static void assertProbeAnswered() throws IOException {
        assertProbeAnswered(server);
    }

    private static void assertProbeAnswered(LabServer target) throws IOException {
        assertProbeAnswered(target, 1000);
    }

    private static void assertProbeAnswered(LabServer target, long withinMillis) throws IOException {
        long start = System.nanoTime();
        Answer a = exchange(
                target,
                "GET /api/settings HTTP/1.1\r\nHost: 127.0.0.1:" + target.port() + "\r\nConnection: close\r\n\r\n");
        assertThat(a.status()).isEqualTo(200);
        assertThat(millisSince(start))
                .as("probe answered within %d ms", withinMillis)
                .isLessThan(withinMillis);
    }

    private static String post(String path, String type, String body, String extraHeaders) {
        return post(server, path, type, body, extraHeaders);
    }

    private static String post(LabServer target, String path, String type, String body, String extraHeaders) {
        return RawHttp.post(target.port(), path, type, body, extraHeaders);
    }

    private static Answer exchange(String request) throws IOException {
        return exchange(server, request);
    }

    private static Answer exchange(LabServer target, String request) throws IOException {
        return RawHttp.exchange(target.port(), request);
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
