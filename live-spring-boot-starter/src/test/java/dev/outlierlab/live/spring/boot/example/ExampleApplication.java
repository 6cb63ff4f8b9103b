package dev.outlierlab.live.spring.boot.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

@SpringBootApplication
public class ExampleApplication {
    public static void main(String[] args) {
        SpringApplication.run(ExampleApplication.class, args);
    }

    @Bean
    @LoadBalanced
    RestClient.Builder loadBalanced() {
        return RestClient.builder();
    }

    @RestController
    static class SearchController {
        private final RestClient search;

        SearchController(RestClient.Builder loadBalanced) {
            this.search = loadBalanced.baseUrl("http://search").build();
        }

        @GetMapping("/find")
        String find() {
            return search.get().uri("/work").retrieve().body(String.class);
        }
    }
}
