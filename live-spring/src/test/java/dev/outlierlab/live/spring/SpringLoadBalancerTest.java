package dev.outlierlab.live.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.ManualClock;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.CompletionContext;
import org.springframework.cloud.client.loadbalancer.DefaultRequest;
import org.springframework.cloud.client.loadbalancer.DefaultResponse;
import org.springframework.cloud.client.loadbalancer.Response;
import org.springframework.cloud.client.loadbalancer.ResponseData;
import org.springframework.cloud.loadbalancer.core.RoundRobinLoadBalancer;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.support.SimpleObjectProvider;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import reactor.core.publisher.Flux;

/**
 * Spring Cloud LoadBalancer's own {@link RoundRobinLoadBalancer} over the outlier-detecting supplier, with
 * outcomes fed back through the lifecycle as Spring reports them; gateway profile (3 failures in a row eject
 * for 30 s) on an injected clock.
 */
class SpringLoadBalancerTest {
    private final ManualClock clock = new ManualClock();
    private final List<ServiceInstance> instances = new ArrayList<>(List.of(
            new DefaultServiceInstance("a", "search", "10.0.0.1", 8080, false),
            new DefaultServiceInstance("b", "search", "10.0.0.2", 8080, false),
            new DefaultServiceInstance("c", "search", "10.0.0.3", 8080, false)));

    private final ServiceInstanceListSupplier discovery = new ServiceInstanceListSupplier() {
        @Override
        public String getServiceId() {
            return "search";
        }

        @Override
        public Flux<List<ServiceInstance>> get() {
            return Flux.just(List.copyOf(instances));
        }
    };

    private LivePool pool(StageMode mode) {
        return LivePoolBuilder.gateway("search", GatewayConfig.defaults().withMode(mode))
                .clock(clock)
                .build();
    }

    private static String choose(RoundRobinLoadBalancer lb) {
        Response<ServiceInstance> r = lb.choose(new DefaultRequest<>()).block();
        return r.getServer().getInstanceId();
    }

    private static CompletionContext<Object, ServiceInstance, Object> completed(
            ServiceInstance instance, HttpStatus status) {
        ResponseData data = new ResponseData(status, new HttpHeaders(), null, null);
        return new CompletionContext<>(
                CompletionContext.Status.SUCCESS, new DefaultRequest<>(), new DefaultResponse(instance), data);
    }

    private static CompletionContext<Object, ServiceInstance, Object> failed(ServiceInstance instance, Throwable t) {
        return new CompletionContext<>(
                CompletionContext.Status.FAILED, t, new DefaultRequest<>(), new DefaultResponse(instance));
    }

    @Test
    void prodTakesAnInstanceThatFailsThreeTimesOutOfTheRoundRobinForThirtySeconds() {
        LivePool pool = pool(StageMode.PROD);
        OutlierDetectionServiceInstanceListSupplier supplier =
                new OutlierDetectionServiceInstanceListSupplier(discovery, pool);
        OutlierDetectionLifecycle lifecycle = new OutlierDetectionLifecycle(pool);
        RoundRobinLoadBalancer lb = new RoundRobinLoadBalancer(new SimpleObjectProvider<>(supplier), "search");

        assertThat(supplier.get().blockFirst())
                .extracting(ServiceInstance::getInstanceId)
                .containsExactly("a", "b", "c");
        ServiceInstance b = instances.get(1);
        lifecycle.onComplete(completed(b, HttpStatus.SERVICE_UNAVAILABLE));
        lifecycle.onComplete(failed(b, new ConnectException("refused")));
        lifecycle.onComplete(failed(b, new RuntimeException(new TimeoutException("slow"))));
        List<String> chosen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            chosen.add(choose(lb));
        }
        assertThat(chosen).doesNotContain("b").contains("a", "c");
        assertThat(pool.snapshot().ejected()).containsExactly("b");

        clock.set(30_000_000_000L);
        chosen.clear();
        for (int i = 0; i < 6; i++) {
            chosen.add(choose(lb));
        }
        assertThat(chosen).contains("a", "b", "c");
    }

    @Test
    void shadowLeavesTheListAloneAndMembershipFollowsDiscovery() {
        LivePool pool = pool(StageMode.SHADOW);
        OutlierDetectionServiceInstanceListSupplier supplier =
                new OutlierDetectionServiceInstanceListSupplier(discovery, pool);
        OutlierDetectionLifecycle lifecycle = new OutlierDetectionLifecycle(pool);
        supplier.get().blockFirst();
        for (int i = 0; i < 3; i++) {
            lifecycle.onComplete(completed(instances.get(0), HttpStatus.BAD_GATEWAY));
        }
        // 4xx counts as success: nothing happens to c.
        for (int i = 0; i < 5; i++) {
            lifecycle.onComplete(completed(instances.get(2), HttpStatus.NOT_FOUND));
        }
        assertThat(supplier.get().blockFirst())
                .extracting(ServiceInstance::getInstanceId)
                .containsExactly("a", "b", "c");
        assertThat(pool.counters().stageWouldEject()).isEqualTo(1);
        assertThat(pool.snapshot().ejected()).containsExactly("a");

        instances.remove(1);
        instances.add(new DefaultServiceInstance(null, "search", "10.0.0.9", 8080, false));
        supplier.get().blockFirst();
        assertThat(pool.endpoints()).extracting(e -> e.name()).containsExactly("a", "c", "10.0.0.9:8080");
        lifecycle.onComplete(new CompletionContext<>(CompletionContext.Status.DISCARD, new DefaultRequest<>()));
        assertThat(pool.counters().accepted()).isEqualTo(8);
    }
}
