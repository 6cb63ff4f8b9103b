package dev.outlierlab.live.spring;

import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LivePool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
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
 * through a {@link LivePool}'s stage, as Envoy's outlier detector removes ejected hosts from the load
 * balancer's healthy set ({@code DetectorImpl::ejectHost}): in prod, ejected instances leave the list (never all
 * of them); in shadow, the list is unchanged and the stage names what prod would have removed; in off, nothing
 * happens. The pool's members follow the delegate's lists: an instance seen for the first time is added, one
 * missing from a list is removed. Give each service its own pool (the Spring Boot starter does so by
 * construction): one pool fed by two services' instances mixes their outcomes. Put it directly over the
 * discovery supplier, or over its cache (before zone or hint filtering, which emit subsets). A request costs
 * one pass over the list and no lock while the list is the one seen last; a changed list is synced under this
 * supplier's own lock. Outcomes come from {@link OutlierDetectionLifecycle}.
 */
public final class OutlierDetectionServiceInstanceListSupplier extends DelegatingServiceInstanceListSupplier {
    /** The instances last seen and their endpoints, in the list's order. */
    private record Members(
            List<ServiceInstance> seen,
            List<ServiceInstance> instances,
            List<Endpoint> endpoints,
            Map<Endpoint, ServiceInstance> byEndpoint) {}

    private final LivePool pool;
    private final Object syncLock = new Object();
    private volatile Members last = new Members(List.of(), List.of(), List.of(), Map.of());
    /** The pool's warnings already logged (under the sync lock). */
    private final Set<String> warned = new HashSet<>();

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

    /** Syncs the pool's members with {@code instances} if they changed, then runs the stage over them in their order. */
    List<ServiceInstance> filter(List<ServiceInstance> instances) {
        Members m = last;
        if (m.seen() != instances && !m.instances().equals(instances)) {
            m = sync(instances);
        }
        List<Endpoint> kept = pool.filter(m.endpoints()).candidates();
        if (kept.size() == m.endpoints().size()) {
            return instances;
        }
        List<ServiceInstance> out = new ArrayList<>(kept.size());
        for (Endpoint e : kept) {
            out.add(m.byEndpoint().get(e));
        }
        return out;
    }

    private Members sync(List<ServiceInstance> instances) {
        synchronized (syncLock) {
            Members m = last;
            if (m.instances().equals(instances)) {
                return m;
            }
            Map<Endpoint, ServiceInstance> byEndpoint = new IdentityHashMap<>();
            List<Endpoint> endpoints = new ArrayList<>(instances.size());
            Set<String> present = new HashSet<>();
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
                endpoints.add(e);
            }
            for (Endpoint member : pool.endpoints()) {
                if (!present.contains(member.name())) {
                    pool.remove(member);
                }
            }
            m = new Members(instances, List.copyOf(instances), List.copyOf(endpoints), byEndpoint);
            last = m;
            // What cannot work with this many instances (Envoy's default cap and three instances, ...), logged
            // once, as the pool's builder logs it for endpoints it is given.
            for (String w : pool.warnings()) {
                if (warned.add(w)) {
                    System.getLogger(OutlierDetectionServiceInstanceListSupplier.class.getName())
                            .log(System.Logger.Level.WARNING, "outlier-lab pool " + pool.name() + ": " + w);
                }
            }
            return m;
        }
    }
}
