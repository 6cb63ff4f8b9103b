package dev.outlierlab.live.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.ManualClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The meters read what the pool decided, under Envoy's names and the stage's. */
class LivePoolMetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void envoyProfileUsesEnvoysStatNames() {
        LivePool pool = LivePoolBuilder.envoy("search", OutlierDetectionConfig.builder()
                .set(OutlierSetting.CONSECUTIVE_5XX, 3).set(OutlierSetting.MAX_EJECTION_PERCENT, 100).build(), 0)
                .clock(new ManualClock()).seed(1).endpoints("a", "b", "c").build();
        LivePoolMeters.bind(pool, registry);
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("a"), 503);
        }
        pool.filter();
        assertThat(registry.get("outlier_detection.ejections_active").tag("pool", "search").gauge().value()).isEqualTo(1);
        assertThat(registry.get("outlier_detection.ejections_enforced_total").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("outlier_detection.ejections_detected_consecutive_5xx").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("outlier_lab.stage").tag("action", "eject").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("outlier_lab.outcomes").tag("result", "applied").functionCounter().count()).isEqualTo(3);
        assertThat(registry.get("outlier_lab.mode").tag("mode", "prod").gauge().value()).isEqualTo(1);
    }

    @Test
    void gatewayProfileCountsItsStages() {
        LivePool pool = LivePoolBuilder.gateway("gpt-5", GatewayConfig.defaults().withMode(StageMode.SHADOW))
                .clock(new ManualClock()).endpoints("azure", "openai").build();
        LivePoolMeters.bind(pool, registry);
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("azure"), 500);
        }
        pool.filter();
        pool.filter();
        assertThat(registry.get("outlier_lab.stage").tags("pool", "gpt-5", "action", "would_eject").functionCounter().count())
                .isEqualTo(2);
        assertThat(registry.get("outlier_lab.stage").tag("action", "eject").functionCounter().count()).isZero();
        assertThat(registry.get("outlier_detection.ejections_consecutive").tag("profile", "gateway").functionCounter().count())
                .isEqualTo(1);
        assertThat(registry.get("outlier_lab.mode").tag("mode", "shadow").gauge().value()).isEqualTo(1);
    }
}
