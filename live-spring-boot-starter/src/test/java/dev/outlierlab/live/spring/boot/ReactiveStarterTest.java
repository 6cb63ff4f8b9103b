package dev.outlierlab.live.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.live.LivePool;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/** A real reactive application (Netty) with a {@code @LoadBalanced WebClient}: the failing instance leaves. */
@SpringBootTest(
        classes = ReactiveStarterTest.App.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.main.web-application-type=reactive",
            "outlier-lab.services.search.profile=gateway",
            "outlier-lab.services.search.mode=prod",
            "outlier-lab.services.search.settings.consecutive_failures=3",
            "outlier-lab.services.search.settings.ejection_time=30s"
        })
class ReactiveStarterTest {
    static Backends backends;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        @LoadBalanced
        WebClient.Builder loadBalanced() {
            return WebClient.builder();
        }
    }

    @DynamicPropertySource
    static void instances(DynamicPropertyRegistry registry) {
        backends = new Backends();
        backends.register(registry, "search");
    }

    @AfterAll
    static void close() {
        backends.close();
    }

    @Autowired
    WebClient.Builder builder;

    @Autowired
    OutlierLabPools pools;

    private int get() {
        return builder.build()
                .get()
                .uri("http://search/work")
                .exchangeToMono(
                        r -> r.releaseBody().then(Mono.just(r.statusCode().value())))
                .block(Duration.ofSeconds(10));
    }

    @Test
    void theFailingInstanceLeavesTheRotation() {
        for (int i = 0; i < 30; i++) {
            get();
        }
        LivePool pool = pools.pool("search");
        assertThat(pool.endpoints()).hasSize(3);
        long cBefore = backends.c.served();
        assertThat(cBefore).isBetween(3L, 4L);
        for (int i = 0; i < 30; i++) {
            assertThat(get()).isEqualTo(200);
        }
        assertThat(backends.c.served()).isEqualTo(cBefore);
        assertThat(pool.snapshot().counters().accepted()).isEqualTo(60);
    }
}
