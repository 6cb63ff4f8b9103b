package dev.outlierlab.live.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.client.DefaultServiceInstance;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import reactor.core.publisher.Flux;

/**
 * With 300 instances, membership work happens only when discovery's list changes: an equal list (a new
 * object, as a discovery client returns at each refresh) leaves the pool's members as they are, so a request
 * costs one pass over its list, not a sync of the pool.
 */
class SupplierMembershipTest {
    private static List<ServiceInstance> instances(int n) {
        List<ServiceInstance> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new DefaultServiceInstance("i" + i, "search", "10.0." + (i / 250) + "." + (i % 250), 8080, false));
        }
        return out;
    }

    @Test
    void anUnchangedListLeavesTheMembersAloneAndAChangedOneIsSynced() {
        LivePool pool = LivePoolBuilder.gateway("search", GatewayConfig.defaults())
                .clock(new ManualClock())
                .build();
        ServiceInstanceListSupplier none = new ServiceInstanceListSupplier() {
            @Override
            public String getServiceId() {
                return "search";
            }

            @Override
            public Flux<List<ServiceInstance>> get() {
                return Flux.empty();
            }
        };
        OutlierDetectionServiceInstanceListSupplier supplier =
                new OutlierDetectionServiceInstanceListSupplier(none, pool);
        List<ServiceInstance> first = instances(300);
        assertThat(supplier.filter(first)).isSameAs(first);
        List<Endpoint> members = pool.endpoints();
        assertThat(members).hasSize(300);
        for (int i = 0; i < 1000; i++) {
            List<ServiceInstance> again = instances(300);
            assertThat(supplier.filter(again)).isSameAs(again);
        }
        assertThat(pool.endpoints()).isSameAs(members);
        List<ServiceInstance> fewer = instances(300).subList(0, 299);
        assertThat(supplier.filter(fewer)).hasSize(299);
        assertThat(pool.endpoints()).hasSize(299).isNotSameAs(members);
        assertThat(pool.endpoint("i299")).isNull();
    }
}
