package dev.outlierlab.live.spring.boot;

import dev.outlierlab.live.FailureClassifier;
import dev.outlierlab.live.LivePool;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.DisposableBean;

/**
 * The application's live pools, one per service configured under {@code outlier-lab.services}, built and
 * validated when the context starts (a bad property stops it with a message naming the property) and ticking
 * until it closes. Each load-balanced service's child context takes its own pool from here by its service id,
 * so two services never share one: their instances, outcomes and ejections stay apart by construction.
 */
public final class OutlierLabPools implements DisposableBean {
    private final Map<String, LivePool> pools = new LinkedHashMap<>();
    private final Map<String, FailureClassifier> classifiers = new LinkedHashMap<>();

    public OutlierLabPools(OutlierLabProperties properties) {
        for (Map.Entry<String, OutlierLabProperties.Service> e :
                properties.getServices().entrySet()) {
            LivePool pool = ServicePoolFactory.build(e.getKey(), e.getValue());
            pools.put(e.getKey(), pool);
            FailureClassifier.Builder c = FailureClassifier.builder();
            if (e.getValue().isFailOn429()) {
                c.failOn429();
            }
            classifiers.put(e.getKey(), c.build());
        }
        pools.values().forEach(LivePool::start);
    }

    /** The service's pool, or null when the service is not configured. */
    public LivePool pool(String service) {
        return pools.get(service);
    }

    /** Every pool by service id, in the properties' order. */
    public Map<String, LivePool> pools() {
        return Collections.unmodifiableMap(pools);
    }

    FailureClassifier classifier(String service) {
        return classifiers.getOrDefault(service, FailureClassifier.defaults());
    }

    @Override
    public void destroy() {
        pools.values().forEach(LivePool::close);
    }
}
