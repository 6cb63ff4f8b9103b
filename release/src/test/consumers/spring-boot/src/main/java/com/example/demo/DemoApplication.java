package com.example.demo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.client.loadbalancer.LoadBalanced;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientResponseException;

/** A service that calls "search" through Spring Cloud LoadBalancer; the starter gives search its outlier pool. */
@SpringBootApplication
public class DemoApplication {
    public static void main(String[] args) {
        SpringApplication.run(DemoApplication.class, args);
    }

    @Bean
    @LoadBalanced
    RestClient.Builder loadBalanced() {
        return RestClient.builder();
    }

    @RestController
    static class FindController {
        private final RestClient search;

        FindController(RestClient.Builder loadBalanced) {
            this.search = loadBalanced.baseUrl("http://search").build();
        }

        @GetMapping("/find")
        String find() {
            try {
                return search.get().uri("/work").retrieve().body(String.class);
            } catch (RestClientResponseException e) {
                return "search answered " + e.getStatusCode().value();
            }
        }
    }
}
