package com.example.plain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A plain Java service's use of outlier-lab-live: three real backends on loopback, c answers 503, c is ejected. */
class LivePoolConsumerTest {
    private static HttpServer backend(int status, AtomicInteger served) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            served.incrementAndGet();
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    @Test
    void theFailingBackendIsEjected() throws Exception {
        Map<String, AtomicInteger> served = new LinkedHashMap<>();
        Map<String, HttpServer> servers = new LinkedHashMap<>();
        for (String name : List.of("a", "b", "c")) {
            served.put(name, new AtomicInteger());
            servers.put(name, backend(name.equals("c") ? 503 : 200, served.get(name)));
        }
        OutlierDetectionConfig envoy = OutlierDetectionConfig.builder()
                .set(OutlierSetting.CONSECUTIVE_5XX, 3)
                .set(OutlierSetting.INTERVAL, Duration.ofSeconds(1))
                .set(OutlierSetting.BASE_EJECTION_TIME, Duration.ofSeconds(30))
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 100)
                .build();
        HttpClient client = HttpClient.newHttpClient();
        try (LivePool pool = LivePoolBuilder.envoy("backends", envoy).endpoints("a", "b", "c")
                .mode(StageMode.PROD).build().start()) {
            for (int i = 0; i < 60; i++) {
                List<Endpoint> candidates = pool.filter().candidates();
                Endpoint target = candidates.get(i % candidates.size());
                int port = servers.get(target.name()).getAddress().getPort();
                HttpResponse<Void> response = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/work")).build(), HttpResponse.BodyHandlers.discarding());
                pool.record(target, response.statusCode());
            }
            assertEquals(List.of("c"), pool.snapshot().ejected());
            assertEquals(3, served.get("c").get(), "c is ejected at its third 503 in a row and sent nothing more");
            assertTrue(served.get("a").get() + served.get("b").get() == 57);
        } finally {
            servers.values().forEach(server -> server.stop(0));
        }
    }
}
