package dev.outlierlab.live.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

/**
 * A real servlet application (Tomcat on a random port) with a {@code @LoadBalanced RestClient}, two services
 * over the same three loopback backends (c answers 503): search (Envoy profile, prod) and billing (gateway
 * profile, shadow). Each gets its own pool; search stops sending to c, billing's traffic is unchanged; the
 * actuator endpoint shows and switches the mode; the meters are on the application's registry.
 */
@SpringBootTest(
        classes = ServletStarterTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.main.web-application-type=servlet",
            "outlier-lab.services.search.profile=envoy",
            "outlier-lab.services.search.mode=prod",
            "outlier-lab.services.search.panic-threshold=0",
            "outlier-lab.services.search.settings.consecutive_5xx=3",
            "outlier-lab.services.search.settings.max_ejection_percent=100",
            "outlier-lab.services.search.settings.interval=1s",
            "outlier-lab.services.search.settings.base_ejection_time=30s",
            "outlier-lab.services.billing.profile=gateway",
            "outlier-lab.services.billing.mode=shadow",
            "outlier-lab.services.billing.settings.ejection_time=30s",
            "management.endpoints.web.exposure.include=health,outlierlab",
            "management.endpoint.health.show-details=always"
        })
class ServletStarterTest {
    static Backends backends;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        @LoadBalanced
        RestClient.Builder loadBalanced() {
            return RestClient.builder();
        }
    }

    @DynamicPropertySource
    static void instances(DynamicPropertyRegistry registry) {
        backends = new Backends();
        backends.register(registry, "search", "billing");
    }

    @AfterAll
    static void close() {
        backends.close();
    }

    @Autowired
    RestClient.Builder builder;

    @Autowired
    OutlierLabPools pools;

    @Autowired
    MeterRegistry meters;

    @LocalServerPort
    int port;

    private int get(String service) {
        try {
            return builder.build()
                    .get()
                    .uri("http://" + service + "/work")
                    .retrieve()
                    .toBodilessEntity()
                    .getStatusCode()
                    .value();
        } catch (RestClientResponseException e) {
            return e.getStatusCode().value();
        }
    }

    private String actuator(String method, String path, String body) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/" + path));
        r = body == null
                ? r.method(method, HttpRequest.BodyPublishers.noBody())
                : r.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> response =
                HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    @Test
    void eachServiceHasItsOwnPoolAndProdStopsSendingToTheFailingInstance() throws Exception {
        LivePool search = pools.pool("search");
        LivePool billing = pools.pool("billing");
        assertThat(search).isNotSameAs(billing);
        for (int i = 0; i < 30; i++) {
            get("search");
        }
        assertThat(search.endpoints()).hasSize(3);
        long cBefore = backends.c.served();
        assertThat(cBefore).isBetween(3L, 4L);
        for (int i = 0; i < 30; i++) {
            assertThat(get("search")).isEqualTo(200);
        }
        assertThat(backends.c.served()).isEqualTo(cBefore);
        assertThat(search.snapshot().endpoints()).filteredOn(e -> e.ejected()).hasSize(1);

        // billing: same backends, its own pool, shadow: c is named but keeps its share.
        for (int i = 0; i < 30; i++) {
            get("billing");
        }
        assertThat(backends.c.served() - cBefore).isBetween(9L, 11L);
        assertThat(billing.snapshot().endpoints()).filteredOn(e -> e.ejected()).hasSize(1);
        assertThat(billing.counters().stageWouldEject()).isPositive();
        assertThat(search.snapshot().counters().accepted()).isEqualTo(60);

        assertThat(meters.get("envoy_cluster.outlier_detection.ejections_active")
                        .tag("envoy_cluster_name", "search")
                        .gauge()
                        .value())
                .isEqualTo(1);
        // A read of the pool's meters takes a fresh snapshot (at most once a second), which registers the meters
        // of endpoints that joined since: billing's instances arrived after the meters were bound.
        assertThat(meters.get("envoy_cluster.outlier_detection.ejections_active")
                        .tag("envoy_cluster_name", "billing")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(meters.get("envoy_cluster.outlier_detection.host.ejected")
                        .tag("envoy_cluster_name", "billing")
                        .tag(
                                "endpoint",
                                search.snapshot().endpoints().stream()
                                        .filter(e -> e.ejected())
                                        .findFirst()
                                        .orElseThrow()
                                        .name())
                        .gauge()
                        .value())
                .isEqualTo(1);

        assertThat(actuator("GET", "outlierlab", null))
                .contains("\"search\":{\"profile\":\"envoy\",\"mode\":\"prod\"")
                .contains("\"billing\":{\"profile\":\"gateway\",\"mode\":\"shadow\"")
                .contains("\"ejected\":true");
        assertThat(actuator("POST", "outlierlab/search", "{\"mode\":\"off\"}")).contains("\"mode\":\"off\"");
        assertThat(search.mode()).isEqualTo(StageMode.OFF);
        assertThat(actuator("GET", "health", null))
                .contains("\"outlierLab\":{\"status\":\"UP\"")
                .contains("\"search\":{\"profile\":\"envoy\",\"mode\":\"off\"");
        // Off: c is back in the rotation for search.
        for (int i = 0; i < 6; i++) {
            get("search");
        }
        assertThat(backends.c.served() - cBefore).isGreaterThan(10L);
    }
}
