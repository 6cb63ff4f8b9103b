package dev.outlierlab.live.spring.boot.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.live.httpclient.LoopbackUpstream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The Spring Boot example of docs/live.md as a fresh project has it: the application class and
 * {@code application.yml} are the ones in the docs, character for character (checked here), and the project
 * depends on the starter and {@code spring-cloud-starter-loadbalancer} only. The docs' fixed ports become
 * three real loopback backends (the third answers 503); then the user's journey: shadow names the bad backend
 * and changes nothing, the actuator switches to prod, the bad backend gets no more traffic.
 */
@SpringBootTest(
        classes = ExampleApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.config.name=example")
class ExampleShapeTest {
    static List<LoopbackUpstream> backends;

    @DynamicPropertySource
    static void instances(DynamicPropertyRegistry registry) throws Exception {
        backends = List.of(
                LoopbackUpstream.start("a"),
                LoopbackUpstream.start("b"),
                LoopbackUpstream.start("c").failing(100, 503));
        for (int i = 0; i < 3; i++) {
            String uri = backends.get(i).uri().toString().replaceAll("/$", "");
            registry.add("spring.cloud.discovery.client.simple.instances.search[" + i + "].uri", () -> uri);
        }
    }

    @AfterAll
    static void close() {
        backends.forEach(LoopbackUpstream::close);
    }

    @LocalServerPort
    int port;

    private HttpResponse<String> call(String method, String path, String json) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        r = json == null
                ? r.method(method, HttpRequest.BodyPublishers.noBody())
                : r.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(json));
        return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The fenced block that follows {@code marker} in docs/live.md. */
    private static String docsBlock(String marker) throws Exception {
        String docs = Files.readString(Path.of("..", "docs", "live.md"));
        int at = docs.indexOf(marker);
        assertThat(at).as("docs/live.md has " + marker).isNotNegative();
        int start = docs.indexOf('\n', docs.indexOf("```", at)) + 1;
        return docs.substring(start, docs.indexOf("```", start));
    }

    @Test
    void theDocsExampleIsThisProject() throws Exception {
        assertThat(docsBlock("<!-- example: application.yml -->"))
                .isEqualTo(Files.readString(Path.of("src/test/resources/example.yml")));
        String source = Files.readString(
                Path.of("src/test/java/dev/outlierlab/live/spring/boot/example/ExampleApplication.java"));
        assertThat(docsBlock("<!-- example: ExampleApplication.java -->"))
                .isEqualTo(source.replace(
                        "package dev.outlierlab.live.spring.boot.example;", "package com.example.demo;"));
    }

    @Test
    void shadowNamesTheBadBackendThenProdRemovesIt() throws Exception {
        for (int i = 0; i < 30; i++) {
            call("GET", "/find", null);
        }
        long c = backends.get(2).served();
        assertThat(c).isBetween(9L, 11L);
        assertThat(call("GET", "/actuator/outlierlab/search", null).body())
                .contains("\"mode\":\"shadow\"")
                .contains("\"ejected\":true");
        HttpResponse<String> switched = call("POST", "/actuator/outlierlab/search", "{\"mode\":\"prod\"}");
        assertThat(switched.statusCode()).isEqualTo(200);
        for (int i = 0; i < 30; i++) {
            assertThat(call("GET", "/find", null).statusCode()).isEqualTo(200);
        }
        assertThat(backends.get(2).served()).isEqualTo(c);
    }
}
