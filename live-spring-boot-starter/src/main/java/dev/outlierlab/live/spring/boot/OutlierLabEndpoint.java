package dev.outlierlab.live.spring.boot;

import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.EndpointState;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.PoolSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The actuator endpoint {@code outlierlab}: {@code GET /actuator/outlierlab} shows every pool (profile, mode,
 * each endpoint's state, the profile's statistics, counters, warnings), {@code GET /actuator/outlierlab/NAME}
 * one, and {@code POST /actuator/outlierlab/NAME} with {@code {"mode": "prod"}} switches that pool's mode at
 * once ({@link LivePool#setMode}). Expose it as any actuator endpoint
 * ({@code management.endpoints.web.exposure.include=health,outlierlab}), and secure it: it changes routing.
 */
@Endpoint(id = "outlierlab")
public class OutlierLabEndpoint {
    private final OutlierLabPools pools;

    public OutlierLabEndpoint(OutlierLabPools pools) {
        this.pools = pools;
    }

    @ReadOperation
    public Map<String, Object> pools() {
        Map<String, Object> out = new LinkedHashMap<>();
        pools.pools().forEach((name, pool) -> out.put(name, describe(pool)));
        return out;
    }

    @ReadOperation
    public Map<String, Object> pool(@Selector String service) {
        LivePool pool = pools.pool(service);
        return pool == null ? null : describe(pool);
    }

    @WriteOperation
    public Map<String, Object> mode(@Selector String service, String mode) {
        LivePool pool = pools.pool(service);
        if (pool == null) {
            return null;
        }
        StageMode m;
        try {
            m = ServicePoolFactory.mode("mode", mode == null ? "" : mode);
        } catch (IllegalArgumentException e) {
            throw new InvalidEndpointRequestException(e.getMessage(), e.getMessage());
        }
        pool.setMode(m);
        return describe(pool);
    }

    static Map<String, Object> describe(LivePool pool) {
        PoolSnapshot s = pool.snapshot();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("profile", s.profile());
        out.put("mode", s.mode().configName());
        List<Map<String, Object>> endpoints = new ArrayList<>();
        for (EndpointState e : s.endpoints()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", e.name());
            m.put("ejected", e.ejected());
            m.put("ejections", e.ejections());
            m.put("consecutiveFailures", e.consecutiveFailures());
            endpoints.add(m);
        }
        out.put("endpoints", endpoints);
        out.put("stats", s.detectorStats());
        out.put("counters", s.counters());
        out.put("warnings", pool.warnings());
        return out;
    }
}
