package dev.outlierlab.live.httpclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.FailureClassifier;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.ManualClock;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which requests go to another upstream after a failure, the per-request retry mode, {@code HttpRequest}
 * passthrough, {@code sendAsync}, a streamed body, the classifier, and requests refused before anything is
 * sent; real loopback upstreams, gateway profile (routing order a, b) on a manual clock.
 */
class SafeRetryTest {
    private final ManualClock clock = new ManualClock();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private LoopbackUpstream upstream(String name) throws Exception {
        LoopbackUpstream u = LoopbackUpstream.start(name);
        open.add(u);
        return u;
    }

    private FailoverClient client(FailureClassifier classifier, URI a, URI b) {
        LivePool pool = LivePoolBuilder.gateway("llm", GatewayConfig.defaults())
                .clock(clock)
                .mode(StageMode.PROD)
                .build();
        FailoverClient client = FailoverClient.builder(pool)
                .attemptTimeout(Duration.ofSeconds(3))
                .fallbacks(1)
                .classifier(classifier)
                .build();
        client.addUpstream("a", a);
        client.addUpstream("b", b);
        return client;
    }

    /** An upstream that accepts connections and closes them at once: every attempt is a reset. */
    private URI resetting() throws Exception {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(server);
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try (Socket s = server.accept()) {
                    s.getInputStream().read(new byte[256]);
                } catch (Exception e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/");
    }

    @Test
    void aPostAnswered503IsNotResentAGetIs() throws Exception {
        LoopbackUpstream a = upstream("a").failing(100, 503);
        LoopbackUpstream b = upstream("b");
        FailoverClient client = client(FailureClassifier.defaults(), a.uri(), b.uri());
        FailoverResponse<byte[]> post = client.send("POST", "/orders", Map.of(), "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(post.status()).isEqualTo(503);
        assertThat(post.attempts()).extracting(Attempt::endpoint).containsExactly("a");
        assertThat(b.served()).isZero();
        client.get("/orders"); // request 1 starts at b: move the rotation back to a
        FailoverResponse<byte[]> get = client.get("/orders");
        assertThat(get.status()).isEqualTo(200);
        assertThat(get.attempts())
                .extracting(Attempt::endpoint, Attempt::outcome)
                .containsExactly(Tuple.tuple("a", "503"), Tuple.tuple("b", "200"));
        assertThat(new String(get.body(), StandardCharsets.UTF_8)).isEqualTo("b\n");
    }

    @Test
    void aPostMarkedRetryableIsResentAndOneThatNeverConnectedIsToo() throws Exception {
        LoopbackUpstream a = upstream("a").failing(100, 503);
        LoopbackUpstream b = upstream("b");
        FailoverClient client = client(FailureClassifier.defaults(), a.uri(), b.uri());
        FailoverResponse<byte[]> marked = client.send("POST", "/orders", Map.of(), new byte[] {1}, RetryMode.ALWAYS);
        assertThat(marked.endpoint()).isEqualTo("b");
        client.get("/");
        a.refusing();
        FailoverResponse<byte[]> refused = client.send("POST", "/orders", Map.of(), new byte[] {1});
        assertThat(refused.attempts()).extracting(Attempt::outcome).containsExactly("connect_failed", "200");
    }

    @Test
    void aPostResetAfterItWasSentIsNotResentAndTheErrorSaysWhy() throws Exception {
        LoopbackUpstream b = upstream("b");
        FailoverClient client = client(FailureClassifier.defaults(), resetting(), b.uri());
        assertThatThrownBy(() -> client.send("POST", "/orders", Map.of(), new byte[] {1}))
                .isInstanceOf(FailoverException.class)
                .hasMessageContaining("[a reset]")
                .hasMessageContaining("POST is not idempotent");
        assertThat(b.served()).isZero();
        client.get("/");
        assertThat(client.get("/").endpoint()).isEqualTo("b");
    }

    @Test
    void anHttpRequestPassesThroughSyncAndAsyncAndCanStreamItsAnswer() throws Exception {
        LoopbackUpstream a = upstream("a").failing(100, 503);
        LoopbackUpstream b = upstream("b").answeringBytes(3 << 20, false);
        FailoverClient client = client(FailureClassifier.defaults(), a.uri(), b.uri());
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://llm/v1/chat?x=1"))
                .header("X-Trace", "t1")
                .PUT(HttpRequest.BodyPublishers.ofString("body"))
                .build();
        FailoverResponse<InputStream> streamed =
                client.send(request, HttpResponse.BodyHandlers.ofInputStream(), RetryMode.BY_METHOD);
        assertThat(streamed.endpoint()).isEqualTo("b");
        try (InputStream in = streamed.body()) {
            assertThat(in.readAllBytes()).hasSize(3 << 20);
        }
        client.get("/");
        FailoverResponse<byte[]> async = client.sendAsync(request).get();
        assertThat(async.attempts()).extracting(Attempt::endpoint).containsExactly("a", "b");
        assertThat(a.served()).isEqualTo(2);
    }

    @Test
    void the429RuleAndGrpcStatusesDecideWhatFails() throws Exception {
        LoopbackUpstream a = upstream("a").failing(100, 429);
        LoopbackUpstream b = upstream("b");
        FailoverClient plain = client(FailureClassifier.defaults(), a.uri(), b.uri());
        for (int i = 0; i < 6; i++) {
            plain.get("/");
        }
        assertThat(plain.pool().endpoint("a").isEjected())
                .as("a 429 succeeds by default")
                .isFalse();
        FailoverClient strict = client(FailureClassifier.builder().failOn429().build(), a.uri(), b.uri());
        for (int i = 0; i < 6; i++) {
            strict.get("/");
        }
        assertThat(strict.pool().endpoint("a").isEjected())
                .as("three 429s in a row eject")
                .isTrue();
        LoopbackUpstream g = upstream("g").answeringHeader("grpc-status", "14");
        FailoverClient grpc = client(FailureClassifier.defaults(), g.uri(), b.uri());
        FailoverResponse<byte[]> r = grpc.get("/");
        assertThat(r.attempts())
                .extracting(Attempt::endpoint, Attempt::failed)
                .containsExactly(Tuple.tuple("a", true), Tuple.tuple("b", false));
    }

    @Test
    void aPathCannotChooseTheHostAndBadInputIsACheckedClearError() throws Exception {
        LoopbackUpstream a = upstream("a");
        LoopbackUpstream b = upstream("b");
        FailoverClient client = client(FailureClassifier.defaults(), a.uri(), b.uri());
        assertThatThrownBy(() -> client.send("GET", "@127.0.0.1/latest/meta-data/", Map.of(), new byte[0]))
                .isInstanceOf(RejectedRequestException.class)
                .hasMessage("request target \"@127.0.0.1/latest/meta-data/\" is not allowed; expected an absolute path "
                        + "starting with a single /, such as /items?id=1");
        assertThatThrownBy(() -> client.get("//169.254.169.254/x")).isInstanceOf(RejectedRequestException.class);
        assertThatThrownBy(() -> client.get("/a b")).hasMessageContaining("bad character at 2");
        assertThatThrownBy(() -> client.get("/a\r\nHost: evil")).hasMessageContaining("\"/a\\u000d\\u000aHost: evil\"");
        assertThatThrownBy(() -> client.send("GE T", "/", Map.of(), new byte[0]))
                .isInstanceOf(RejectedRequestException.class)
                .hasMessageStartingWith("method \"GE T\" is not allowed");
        assertThatThrownBy(() -> client.send("GET", "/", Map.of("X-A", List.of("v\r\nX-B: w")), new byte[0]))
                .isInstanceOf(RejectedRequestException.class)
                .hasMessageStartingWith("header \"X-A\" value");
        assertThatThrownBy(() -> client.get("/" + "x".repeat(9000))).hasMessageContaining("...\" is not allowed");
        assertThat(a.served() + b.served()).isZero();
        assertThat(client.pool().counters().accepted()).isZero();
    }
}
