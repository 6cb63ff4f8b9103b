package dev.outlierlab.live.httpclient;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Three loopback upstreams, c failing 30 % of its requests with 503: once the Envoy profile's failure
 * percentage ejects c, the other two share its traffic evenly (Envoy's round robin over the hosts left), in the
 * failover client and through the proxy; in shadow the traffic does not change. The gateway profile keeps
 * "next in routing order". The pool's clock is a {@link ManualClock}, moved past the interval by hand.
 */
class RoutingShareTest {
    private static final long S = 1_000_000_000L;
    private final ManualClock clock = new ManualClock();
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Failure percentage only: threshold 20 %, enforced, 3 hosts, 50 requests; consecutive 5xx not enforced. */
    static OutlierDetectionConfig failurePercentage() {
        return OutlierDetectionConfig.builder()
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 0)
                .set(OutlierSetting.ENFORCING_SUCCESS_RATE, 0)
                .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, 20)
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, 100)
                .set(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS, 3)
                .set(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, 50)
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                .build();
    }

    private FailoverClient client(LivePool pool) throws Exception {
        FailoverClient client = FailoverClient.builder(pool)
                .attemptTimeout(Duration.ofSeconds(5))
                .fallbacks(1)
                .build();
        for (String name : List.of("a", "b", "c")) {
            LoopbackUpstream u = LoopbackUpstream.start(name);
            open.add(u);
            if (name.equals("c")) {
                u.failing(30, 503);
            }
            client.addUpstream(name, u.uri());
        }
        return client;
    }

    private LivePool envoy(StageMode mode) {
        return LivePoolBuilder.envoy("search", failurePercentage(), 0)
                .clock(clock)
                .seed(7)
                .mode(mode)
                .build();
    }

    /** Sends {@code n} GETs and counts the upstream each request's first attempt went to. */
    private static Map<String, Integer> firstAttempts(FailoverClient client, int n) throws Exception {
        Map<String, Integer> counts = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            FailoverResponse<byte[]> r = client.get("/work");
            counts.merge(r.attempts().get(0).endpoint(), 1, Integer::sum);
        }
        return counts;
    }

    @Test
    void inProdTheEjectedUpstreamsShareIsSpreadEvenlyOverTheOtherTwo() throws Exception {
        LivePool pool = envoy(StageMode.PROD);
        FailoverClient client = client(pool);
        assertThat(client.routing()).isEqualTo(Routing.ROTATE_OVER_HEALTHY);
        firstAttempts(client, 300);
        clock.set(10 * S); // the interval: failure percentage judges c (30 % >= 20 %)
        Map<String, Integer> after = firstAttempts(client, 600);
        assertThat(pool.endpoint("c").isEjected()).isTrue();
        assertThat(after).containsOnlyKeys("a", "b");
        assertThat(Math.abs(after.get("a") - after.get("b"))).isLessThanOrEqualTo(after.get("a") / 10);
    }

    @Test
    void inShadowTheTrafficDoesNotChange() throws Exception {
        LivePool pool = envoy(StageMode.SHADOW);
        FailoverClient client = client(pool);
        firstAttempts(client, 300);
        clock.set(10 * S);
        Map<String, Integer> after = firstAttempts(client, 600);
        assertThat(pool.endpoint("c").isEjected()).as("virtually ejected").isTrue();
        assertThat(after).containsEntry("a", 200).containsEntry("b", 200).containsEntry("c", 200);
    }

    @Test
    void theGatewayProfileGivesAnEjectedUpstreamsTurnToTheNextInRoutingOrder() throws Exception {
        LivePool pool = LivePoolBuilder.gateway("search", GatewayConfig.defaults())
                .clock(clock)
                .build();
        FailoverClient client = client(pool);
        assertThat(client.routing()).isEqualTo(Routing.NEXT_IN_ORDER);
        pool.endpoint("b").isEjected();
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("b"), 503);
        }
        Map<String, Integer> after = firstAttempts(client, 300);
        // Rotation a, b, c over all three, then b removed: a keeps its third, c gets b's turn and its own.
        assertThat(after).containsEntry("a", 100).containsEntry("c", 200).doesNotContainKey("b");
    }

    @Test
    void throughTheProxyTheOtherTwoGetEqualShares() throws Exception {
        LivePool pool = envoy(StageMode.PROD);
        FailoverClient client = client(pool);
        ReverseProxy proxy = ReverseProxy.start(client, "127.0.0.1", 0, 4);
        open.add(proxy);
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        URI uri = proxy.uri().resolve("/work");
        for (int i = 0; i < 300; i++) {
            http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding());
        }
        clock.set(10 * S);
        Map<String, Integer> after = new TreeMap<>();
        for (int i = 0; i < 600; i++) {
            HttpResponse<Void> r =
                    http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding());
            assertThat(r.statusCode()).isEqualTo(200);
            after.merge(r.headers().firstValue("X-Outlier-Lab-Upstream").orElseThrow(), 1, Integer::sum);
        }
        assertThat(after).containsOnlyKeys("a", "b");
        assertThat(Math.abs(after.get("a") - after.get("b"))).isLessThanOrEqualTo(after.get("a") / 10);
    }
}
