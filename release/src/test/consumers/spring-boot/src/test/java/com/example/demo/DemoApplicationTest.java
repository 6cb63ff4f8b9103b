package com.example.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The application started for real (Tomcat on a random port) over three real backends on loopback; c answers 503
 * to everything. The starter's pool for search ejects c: after it, c is sent nothing and every call succeeds.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DemoApplicationTest {
    static final Map<String, AtomicInteger> SERVED = new LinkedHashMap<>();
    static final Map<String, HttpServer> BACKENDS = new LinkedHashMap<>();

    @LocalServerPort
    int port;

    private static HttpServer backend(String name, int status) {
        try {
            AtomicInteger served = new AtomicInteger();
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                served.incrementAndGet();
                byte[] body = name.getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            SERVED.put(name, served);
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void instances(DynamicPropertyRegistry registry) {
        int i = 0;
        for (String name : new String[] {"a", "b", "c"}) {
            HttpServer server = backend(name, name.equals("c") ? 503 : 200);
            BACKENDS.put(name, server);
            String uri = "http://127.0.0.1:" + server.getAddress().getPort();
            registry.add("spring.cloud.discovery.client.simple.instances.search[" + i++ + "].uri", () -> uri);
        }
    }

    @AfterAll
    static void stop() {
        BACKENDS.values().forEach(server -> server.stop(0));
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + path)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    @Test
    void theFailingBackendIsEjected() throws Exception {
        for (int i = 0; i < 30; i++) {
            get("/find");
        }
        int cAfterEjection = SERVED.get("c").get();
        assertThat(cAfterEjection).as("c's 503s before its ejection").isBetween(3, 4);
        for (int i = 0; i < 30; i++) {
            assertThat(get("/find")).isIn("a", "b");
        }
        assertThat(SERVED.get("c").get()).as("nothing more sent to c").isEqualTo(cAfterEjection);
        String pools = get("/actuator/outlierlab");
        assertThat(pools).contains("\"search\"", "\"mode\":\"prod\"", "\"ejected\":true",
                String.valueOf(BACKENDS.get("c").getAddress().getPort()));
    }
}
