package dev.outlierlab.live.spring.boot;

import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.micrometer.LivePoolMeters;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.loadbalancer.annotation.LoadBalancerClients;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration of outlier detection for Spring Cloud LoadBalancer: one {@link LivePool}
 * per service configured under {@code outlier-lab.services.NAME} ({@link OutlierLabPools}), wired into that
 * service's own load-balancer child context ({@link OutlierLabLoadBalancerConfiguration}), in servlet and
 * reactive applications alike; with Micrometer, the pools' meters on every registry; with the actuator, the
 * {@code outlierLab} health contributor and the {@code outlierlab} endpoint.
 */
@AutoConfiguration
@ConditionalOnClass(ServiceInstanceListSupplier.class)
@EnableConfigurationProperties(OutlierLabProperties.class)
@LoadBalancerClients(defaultConfiguration = OutlierLabLoadBalancerConfiguration.class)
public class OutlierLabAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean
    public OutlierLabPools outlierLabPools(OutlierLabProperties properties) {
        return new OutlierLabPools(properties);
    }

    /** Micrometer: the pools' meters, bound to every registry of the application. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({MeterRegistry.class, LivePoolMeters.class})
    static class Metrics {
        @Bean
        MeterBinder outlierLabMeters(OutlierLabPools pools) {
            return registry -> pools.pools().values().forEach(pool -> LivePoolMeters.bind(pool, registry));
        }
    }

    /** The actuator: health and the endpoint. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    static class Actuator {
        @Bean
        @ConditionalOnEnabledHealthIndicator("outlierLab")
        OutlierLabHealthIndicator outlierLabHealthIndicator(OutlierLabPools pools) {
            return new OutlierLabHealthIndicator(pools);
        }

        @Bean
        @ConditionalOnAvailableEndpoint
        OutlierLabEndpoint outlierLabEndpoint(OutlierLabPools pools) {
            return new OutlierLabEndpoint(pools);
        }
    }
}
