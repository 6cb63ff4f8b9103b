package dev.outlierlab.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.outlierlab.web.RawHttp.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A run whose client has gone is stopped, over real sockets on loopback: the server streams a space every
 * 150 ms once a run has lasted that long (waiting for a slot included), a write to the closed connection
 * fails, and the run is stopped and its slot freed long before its deadline. The server here runs one simulation at a time with a deadline of a
 * minute, so a run that went on would hold the only slot: the next run being answered at once shows it was
 * freed.
 */
class LabServerCancelTest {
    /**
     * Two billion requests, walked one by one (Poisson arrivals take the per-request path): far longer than the test,
     * whatever the event-driven path makes cheap (with even arrivals this run now takes about 2 s).
     */
    /**
     * A bound far under the server's 60 s deadline and far over what a loaded 2-core machine needs (the suite runs
     * beside 20 other processes): what the test tells apart is "at once" from "when the deadline ends the run".
     */
    private static final long NOTICED_WITHIN_MILLIS = 15_000;

    private static final String LONG_RUN =
            "{\"duration\": \"2000s\", \"traffic\": {\"rps\": 1000000, \"arrivals\": \"poisson\"}}";

    private static final SimulationLimits GENEROUS =
            new SimulationLimits(64 * 1024, 1_000, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, 100, Long.MAX_VALUE);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static LabServer server;

    @BeforeAll
    static void start() throws IOException {
        server = LabServer.start(new LabServer.Options("127.0.0.1", 0, 128, 64, 1, GENEROUS, Duration.ofSeconds(60)));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aRunWhoseClientClosesItsSocketIsStoppedAndItsSlotFreed() throws Exception {
        long before = server.runsLeftByClient();
        long closedAt;
        try (Socket client = new Socket()) {
            client.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000);
            client.getOutputStream()
                    .write(RawHttp.post(server.port(), "/api/run", "application/json", LONG_RUN, "")
                            .getBytes(StandardCharsets.UTF_8));
            client.getOutputStream().flush();
            Thread.sleep(200);
            closedAt = System.nanoTime();
        }
        while (server.runsLeftByClient() == before) {
            assertProbeAnswered();
            assertThat(millisSince(closedAt))
                    .as("the server notices the client has gone, long before the run's 60 s deadline")
                    .isLessThan(NOTICED_WITHIN_MILLIS);
            Thread.sleep(20);
        }
        long noticed = millisSince(closedAt);
        assertThat(server.runsLeftByClient()).isEqualTo(before + 1);

        long start = System.nanoTime();
        Answer next = RawHttp.exchange(
                server.port(),
                RawHttp.post(server.port(), "/api/run", "application/json", "{\"duration\": \"10s\"}", ""));
        assertThat(next.status()).as(next.body()).isEqualTo(200);
        assertThat(millisSince(start))
                .as("the only slot is free again (noticed after " + noticed + " ms); a held slot waits 60 s")
                .isLessThan(NOTICED_WITHIN_MILLIS);
        assertProbeAnswered();
    }

    @Test
    void theStatusAndSpacesReachTheClientWhileTheRunGoesOnAndAStreamedRunEndsWithItsJson() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Socket first = new Socket()) {
            first.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000);
            first.setSoTimeout(5000);
            long sent = System.nanoTime();
            first.getOutputStream()
                    .write(RawHttp.post(server.port(), "/api/run", "application/json", LONG_RUN, "")
                            .getBytes(StandardCharsets.UTF_8));
            String head = readUntil(first.getInputStream(), "\r\n1\r\n \r\n");
            long spaceMillis = millisSince(sent);
            assertThat(head).startsWith("HTTP/1.1 200 ").containsIgnoringCase("transfer-encoding: chunked");
            assertThat(spaceMillis)
                    .as("the first space is flushed to the socket at 150 ms, while the run goes on")
                    .isGreaterThanOrEqualTo(150)
                    .isLessThan(NOTICED_WITHIN_MILLIS);

            // a second run waits for the only slot, longer than 150 ms, so its answer is streamed from its start
            Future<Answer> second = pool.submit(() -> RawHttp.exchange(
                    server.port(), RawHttp.post(server.port(), "/api/run", "application/json", "{}", "")));
            Thread.sleep(200);
            assertThat(second.isDone())
                    .as("the second run waits while the first holds the slot")
                    .isFalse();
            first.close();
            Answer a = second.get(2 * NOTICED_WITHIN_MILLIS, TimeUnit.MILLISECONDS);
            assertThat(a.status()).as(a.body()).isEqualTo(200);
            assertThat(a.chunked()).as(a.headers()).isTrue();
            int spaces = a.body().length() - a.json().length();
            assertThat(spaces)
                    .as("a space when the run started, 150 ms after its arrival")
                    .isGreaterThanOrEqualTo(1);
            assertThat(a.body().substring(0, spaces)).isBlank();
            JsonNode run = MAPPER.readTree(a.body());
            assertThat(run.has("error")).isFalse();
            assertThat(run.path("summary").path("requests").asLong()).isEqualTo(180_000L);
            assertThat(a.json())
                    .as("the same JSON as an answer that is not streamed")
                    .isEqualTo(LabApi.utf8(new LabApi(GENEROUS).run("{}")));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aShortRunIsAnsweredWithItsLengthAndServerTiming() throws Exception {
        // a first run warms the JIT, so that the default run starts well within 150 ms of its arrival
        RawHttp.exchange(server.port(), RawHttp.post(server.port(), "/api/run", "application/json", "{}", ""));
        Answer a =
                RawHttp.exchange(server.port(), RawHttp.post(server.port(), "/api/run", "application/json", "{}", ""));
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.chunked()).isFalse();
        assertThat(a.headers()).containsIgnoringCase("content-length:").containsIgnoringCase("server-timing: run;dur=");
        assertThat(a.body()).startsWith("{");
    }

    private static void assertProbeAnswered() throws IOException {
        long start = System.nanoTime();
        Answer a = RawHttp.exchange(server.port(), RawHttp.get(server.port(), "/"));
        assertThat(a.status()).isEqualTo(200);
        assertThat(millisSince(start))
                .as("a probe is answered while a run goes on, not after it")
                .isLessThan(NOTICED_WITHIN_MILLIS);
    }

    /** Reads until {@code end} has arrived; the text so far. */
    private static String readUntil(InputStream in, String end) throws IOException {
        StringBuilder got = new StringBuilder();
        while (got.indexOf(end) < 0) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("the connection closed after: " + got);
            }
            got.append((char) b);
        }
        return got.toString();
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }
}
