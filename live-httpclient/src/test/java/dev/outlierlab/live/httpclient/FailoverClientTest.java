package dev.outlierlab.live.httpclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LiveDecision;
import dev.outlierlab.live.LiveListener;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The failover client over real HTTP on loopback: three {@link LoopbackUpstream}s, one of which fails, times
 * out or refuses connections. Envoy profile with consecutive 5xx 3, interval 50 ms, base ejection 2 s, cap
 * 100 % and no panic threshold; ticks on the pool's own thread.
 */
class FailoverClientTest {
    private static final long MS = 1_000_000L;
    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<String> decisions = Collections.synchronizedList(new ArrayList<>());
    private final LiveListener decisionLog = new LiveListener() {
        @Override
        public void onDecision(LiveDecision d) {
            decisions.add(d.kind().wireName() + " " + d.endpoint() + " " + d.reason());
        }
    };

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    static OutlierDetectionConfig quick() {
        return OutlierDetectionConfig.builder()
                .set(OutlierSetting.CONSECUTIVE_5XX, 3)
                .set(OutlierSetting.INTERVAL, 50 * MS)
                .set(OutlierSetting.BASE_EJECTION_TIME, 2_000 * MS)
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 100)
                .build();
    }

    private LoopbackUpstream upstream(String name) throws Exception {
        LoopbackUpstream u = LoopbackUpstream.start(name);
        open.add(u);
        return u;
    }

    private FailoverClient client(StageMode mode, int fallbacks, LoopbackUpstream... upstreams) {
        return client(mode, fallbacks, Duration.ofSeconds(2), upstreams);
    }

    private FailoverClient client(StageMode mode, int fallbacks, Duration timeout, LoopbackUpstream... upstreams) {
        return client(
                LivePoolBuilder.envoy("api", quick(), 0)
                        .mode(mode)
                        .seed(1)
                        .build()
                        .start(),
                timeout,
                fallbacks,
                upstreams);
    }

    /** A client whose pool reads the given clock and ticks only when the test calls {@link LivePool#runDue()}. */
    private FailoverClient client(ManualClock clock, StageMode mode, int fallbacks, LoopbackUpstream... upstreams) {
        return client(
                LivePoolBuilder.envoy("api", quick(), 0)
                        .mode(mode)
                        .seed(1)
                        .clock(clock)
                        .build(),
                Duration.ofSeconds(2),
                fallbacks,
                upstreams);
    }

    private FailoverClient client(LivePool pool, Duration timeout, int fallbacks, LoopbackUpstream... upstreams) {
        open.add(pool);
        pool.addListener(decisionLog);
        FailoverClient client = FailoverClient.create(pool, null, timeout, fallbacks);
        for (LoopbackUpstream u : upstreams) {
            client.addUpstream(u.name(), u.uri());
        }
        return client;
    }

    private static List<FailoverResponse<byte[]>> send(FailoverClient client, int n) throws Exception {
        List<FailoverResponse<byte[]>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(client.get("/search?q=" + i));
        }
        return out;
    }

    private static void awaitReturn(LivePool pool, String name) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000 * MS;
        while (pool.snapshot().ejected().contains(name) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(pool.snapshot().ejected()).doesNotContain(name);
    }

    @Test
    void prodEjectsTheFailingUpstreamAndBringsItBackAfterTheEjectionTime() throws Exception {
        LoopbackUpstream a = upstream("a");
        LoopbackUpstream b = upstream("b").failing(100, 503);
        LoopbackUpstream c = upstream("c");
        // The pool's time stands still while the requests run, however slow the machine: the ejection cannot
        // run out before the test looks, and the return happens when the test moves the clock.
        ManualClock clock = new ManualClock();
        FailoverClient client = client(clock, StageMode.PROD, 2, a, b, c);

        List<FailoverResponse<byte[]>> responses = send(client, 12);
        assertThat(responses).extracting(FailoverResponse::status).containsOnly(200);
        // Requests 1, 4 and 7 start at b (round robin); its third 503 ejects it, and nothing reaches it after.
        assertThat(b.served()).isEqualTo(3);
        assertThat(responses.get(1).attempts())
                .extracting(Attempt::endpoint, Attempt::outcome)
                .containsExactly(Tuple.tuple("b", "503"), Tuple.tuple("c", "200"));
        assertThat(responses.subList(8, 12)).allSatisfy(r -> {
            assertThat(r.stage().action()).isEqualTo(StageAction.EJECT);
            assertThat(r.stage().endpoints()).containsExactly("b");
            assertThat(r.attempts()).extracting(Attempt::endpoint).doesNotContain("b");
        });
        assertThat(client.pool().snapshot().ejected()).containsExactly("b");

        b.healthy();
        clock.advance(1_999 * MS);
        client.pool().runDue();
        assertThat(client.pool().snapshot().ejected())
                .as("still out before base_ejection_time")
                .containsExactly("b");
        clock.advance(51 * MS); // 2.05 s: the first interval tick at or after the 2 s ejection returns it
        client.pool().runDue();
        assertThat(client.pool().snapshot().ejected()).isEmpty();
        List<FailoverResponse<byte[]>> after = send(client, 6);
        assertThat(after).extracting(FailoverResponse::status).containsOnly(200);
        assertThat(after).extracting(FailoverResponse::endpoint).contains("b");
        assertThat(after).allSatisfy(r -> assertThat(r.stage()).isNull());
    }

    @Test
    void shadowNamesTheUpstreamAndRoutesUnchanged() throws Exception {
        LoopbackUpstream a = upstream("a");
        LoopbackUpstream b = upstream("b").failing(100, 503);
        LoopbackUpstream c = upstream("c");
        FailoverClient client = client(StageMode.SHADOW, 2, a, b, c);

        List<FailoverResponse<byte[]>> responses = send(client, 12);
        assertThat(responses).extracting(FailoverResponse::status).containsOnly(200);
        // b keeps its round-robin share: requests 1, 4, 7 and 10 all try it first.
        assertThat(b.served()).isEqualTo(4);
        assertThat(responses.get(10).attempts()).extracting(Attempt::endpoint).containsExactly("b", "c");
        assertThat(responses.subList(8, 12)).allSatisfy(r -> {
            assertThat(r.stage().action()).isEqualTo(StageAction.WOULD_EJECT);
            assertThat(r.stage().endpoints()).containsExactly("b");
        });
        assertThat(client.pool().snapshot().ejected()).containsExactly("b");
        assertThat(client.pool().counters().stageEject()).isZero();
    }

    @Test
    void timeoutsAndRefusedConnectionsAreRecordedAndEjectInProd() throws Exception {
        LoopbackUpstream a = upstream("a");
        LoopbackUpstream b = upstream("b").delaying(2_000);
        LoopbackUpstream c = upstream("c").refusing();
        FailoverClient client = client(StageMode.PROD, 2, Duration.ofMillis(300), a, b, c);

        List<FailoverResponse<byte[]>> responses = send(client, 12);
        assertThat(responses).extracting(FailoverResponse::status).containsOnly(200);
        assertThat(responses).extracting(FailoverResponse::endpoint).containsOnly("a");
        List<String> outcomes = responses.stream()
                .flatMap(r -> r.attempts().stream())
                .filter(t -> !t.endpoint().equals("a"))
                .map(t -> t.endpoint() + " " + t.outcome())
                .toList();
        assertThat(outcomes).containsOnly("b timeout", "c connect_failed").contains("b timeout", "c connect_failed");
        // Envoy reports a timeout as 504 and a refused connection as 503: three in a row eject (consecutive 5xx).
        assertThat(decisions).contains("eject b consecutive_5xx", "eject c consecutive_5xx");

        c.accepting();
        b.delaying(0);
        awaitReturn(client.pool(), "c");
        awaitReturn(client.pool(), "b");
        assertThat(send(client, 3)).extracting(FailoverResponse::endpoint).containsExactly("a", "b", "c");
    }

    @Test
    void theGuardKeepsAnEjectedOnlyUpstreamSoTheStageNeverFailsARequest() throws Exception {
        LoopbackUpstream only = upstream("only").failing(50, 502);
        FailoverClient client = client(StageMode.PROD, 0, only);
        List<FailoverResponse<byte[]>> responses = send(client, 8);
        // Every request reached the upstream; half of them failed because the upstream did, none because of the stage.
        assertThat(only.served()).isEqualTo(8);
        assertThat(responses)
                .extracting(FailoverResponse::status)
                .containsExactly(200, 502, 200, 502, 200, 502, 200, 502);
        only.failing(100, 503);
        responses = send(client, 5);
        assertThat(only.served()).isEqualTo(13);
        assertThat(responses.get(4).stage().action()).isEqualTo(StageAction.KEPT_ALL);
        assertThat(responses.get(4).stage().endpoints()).containsExactly("only");
    }

    @Test
    void whenEveryAttemptGetsNoResponseTheCallerIsToldWhatWasTried() throws Exception {
        LoopbackUpstream a = upstream("a").refusing();
        LoopbackUpstream b = upstream("b").refusing();
        FailoverClient client = client(StageMode.PROD, 1, a, b);
        assertThatThrownBy(() -> client.get("/"))
                .isInstanceOf(FailoverException.class)
                .hasMessage("every attempt failed: [a connect_failed, b connect_failed]");
    }
}
