package dev.outlierlab.live.spring;

import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LivePool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.cloud.client.ServiceInstance;
import org.springframework.cloud.client.loadbalancer.Request;
import org.springframework.cloud.loadbalancer.core.DelegatingServiceInstanceListSupplier;
import org.springframework.cloud.loadbalancer.core.ServiceInstanceListSupplier;
import reactor.core.publisher.Flux;

/**
 * A Spring Cloud LoadBalancer {@link ServiceInstanceListSupplier} that passes each list of instances
 * through a {@link LivePool}'s stage: in prod, ejected instances leave the list (never all of them); in
 * shadow, the list is unchanged and the stage names what prod would have removed; in off, nothing happens.
 * The pool's members follow the delegate's lists: an instance seen for the first time is added, one missing
 * from a list is removed. Put it directly over the discovery supplier (before zone or hint filtering, which
 * emit subsets). Outcomes come from {@link OutlierDetectionLifecycle}.
 */
public final class OutlierDetectionServiceInstanceListSupplier extends DelegatingServiceInstanceListSupplier {
    private final LivePool pool;

    public OutlierDetectionServiceInstanceListSupplier(ServiceInstanceListSupplier delegate, LivePool pool) {
        super(delegate);
        this.pool = pool;
    }

    /** The pool's name for an instance: its instance id, or {@code host:port} when it has none. */
    public static String key(ServiceInstance instance) {
        String id = instance.getInstanceId();
        return id != null ? id : instance.getHost() + ":" + instance.getPort();
    }

    public LivePool pool() {
        return pool;
    }

    @Override
    public Flux<List<ServiceInstance>> get() {
        return delegate.get().map(this::filter);
    }

    @Override
    public Flux<List<ServiceInstance>> get(Request request) {
        return delegate.get(request).map(this::filter);
    }

    /** Syncs the pool's members with {@code instances}, then runs the stage over them in their order. */
    List<ServiceInstance> filter(List<ServiceInstance> instances) {
        Map<Endpoint, ServiceInstance> byEndpoint = new HashMap<>();
        List<Endpoint> candidates = new ArrayList<>(instances.size());
        Set<String> present = new HashSet<>();
        synchronized (pool) {
            for (ServiceInstance instance : instances) {
                String key = key(instance);
                if (!present.add(key)) {
                    continue;
                }
                Endpoint e = pool.endpoint(key);
                if (e == null) {
                    e = pool.add(key);
                }
                byEndpoint.put(e, instance);
                candidates.add(e);
            }
            for (Endpoint member : pool.endpoints()) {
                if (!present.contains(member.name())) {
                    pool.remove(member);
                }
            }
        }
        List<Endpoint> kept = pool.filter(candidates).candidates();
        if (kept.size() == candidates.size()) {
            return instances;
        }
        List<ServiceInstance> out = new ArrayList<>(kept.size());
        for (Endpoint e : kept) {
            out.add(byEndpoint.get(e));
        }
        return out;
    }
}
