package dev.outlierlab.live.spring.boot;

import dev.outlierlab.live.EndpointState;
import dev.outlierlab.live.PoolSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The health contributor {@code outlierLab}: UP, with each pool's mode, its endpoints and the ones held
 * ejected (virtually in shadow), and its warnings. An ejection is the detector working, not the application
 * failing, so it never turns the application's health DOWN; alert on the meters instead.
 */
public class OutlierLabHealthIndicator extends AbstractHealthIndicator {
    private final OutlierLabPools pools;

    public OutlierLabHealthIndicator(OutlierLabPools pools) {
        super("outlier-lab health check failed");
        this.pools = pools;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up();
        pools.pools().forEach((name, pool) -> {
            PoolSnapshot s = pool.snapshot();
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("profile", s.profile());
            d.put("mode", s.mode().configName());
            d.put("endpoints", s.endpoints().size());
            List<String> ejected = s.endpoints().stream()
                    .filter(EndpointState::ejected)
                    .map(EndpointState::name)
                    .toList();
            d.put("ejected", ejected);
            d.put("warnings", pool.warnings());
            builder.withDetail(name, d);
        });
    }
}
