package dev.outlierlab.live.spring.boot;

import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.spring.OutlierDetectionLifecycle;
import dev.outlierlab.live.spring.OutlierDetectionServiceInstanceListSupplier;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.discovery.ReactiveDiscoveryClient;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.LoadBalancerLifecycle;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplierBuilder;
import org.springframework.cloud.loadbalancer.support.LoadBalancerClientFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The configuration of each load-balanced service's own child context (Spring Cloud LoadBalancer's
 * {@code LoadBalancerClientFactory} makes one per service id), registered for every service by the
 * starter's {@code @LoadBalancerClients(defaultConfiguration = ...)}: the instance supplier is discovery
 * (the reactive discovery client when the application has one, else the blocking one, so a servlet
 * application needs no {@code ReactiveDiscoveryClient}), then Spring's cache, then, for a service configured
 * under {@code outlier-lab.services}, that service's own pool's stage; the lifecycle records each call's
 * outcome in the same pool. Not meant to be component-scanned.
 */
@Configuration(proxyBeanMethods = false)
public class OutlierLabLoadBalancerConfiguration {
    @Bean
    public ServiceInstanceListSupplier outlierLabServiceInstanceListSupplier(
            ConfigurableApplicationContext context, Environment environment) {
        LivePool pool = context.getBean(OutlierLabPools.class).pool(service(environment));
        ServiceInstanceListSupplierBuilder b = ServiceInstanceListSupplier.builder();
        b = context.getBeanProvider(ReactiveDiscoveryClient.class).getIfAvailable() != null
                ? b.withDiscoveryClient()
                : b.withBlockingDiscoveryClient();
        b = b.withCaching();
        if (pool != null) {
            b = b.with((ctx, delegate) -> new OutlierDetectionServiceInstanceListSupplier(delegate, pool));
        }
        return b.build(context);
    }

    @Bean
    public LoadBalancerLifecycle<Object, Object, ServiceInstance> outlierLabLifecycle(
            ConfigurableApplicationContext context, Environment environment) {
        String service = service(environment);
        OutlierLabPools pools = context.getBean(OutlierLabPools.class);
        LivePool pool = pools.pool(service);
        return pool == null ? new Unconfigured() : new OutlierDetectionLifecycle(pool, pools.classifier(service));
    }

    private static String service(Environment environment) {
        return environment.getProperty(LoadBalancerClientFactory.PROPERTY_NAME);
    }

    /** A service without a pool records nothing. */
    static final class Unconfigured implements LoadBalancerLifecycle<Object, Object, ServiceInstance> {
        @Override
        @SuppressWarnings("rawtypes")
        public boolean supports(Class requestContextClass, Class responseClass, Class serverTypeClass) {
            return false;
        }

        @Override
        public void onStart(Request<Object> request) {}

        @Override
        public void onStartRequest(Request<Object> request, Response<ServiceInstance> lbResponse) {}

        @Override
        public void onComplete(CompletionContext<Object, ServiceInstance, Object> completionContext) {}
    }
}
