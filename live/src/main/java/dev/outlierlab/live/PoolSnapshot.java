package dev.outlierlab.live;

import dev.outlierlab.engine.stage.StageMode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A consistent picture of a pool for dashboards, taken under its lock after draining every outcome
 * recorded so far.
 *
 * @param pool          the pool's name
 * @param profile       {@code envoy} or {@code gateway}
 * @param timeNanos     nanoseconds since the pool started
 * @param mode          the current mode
 * @param endpoints     every member, in routing order
 * @param detectorStats the profile's own statistics under its names (Envoy: {@code ejections_active},
 *                      {@code ejections_enforced_total}, ...)
 * @param counters      outcome and stage accounting
 */
public record PoolSnapshot(
        String pool,
        String profile,
        long timeNanos,
        StageMode mode,
        List<EndpointState> endpoints,
        Map<String, Long> detectorStats,
        PoolCounters counters) {
    public PoolSnapshot {
        endpoints = List.copyOf(endpoints);
        detectorStats = Collections.unmodifiableMap(new LinkedHashMap<>(detectorStats));
    }

    /** The names of the endpoints held ejected now. */
    public List<String> ejected() {
        return endpoints.stream()
                .filter(EndpointState::ejected)
                .map(EndpointState::name)
                .toList();
    }
}
