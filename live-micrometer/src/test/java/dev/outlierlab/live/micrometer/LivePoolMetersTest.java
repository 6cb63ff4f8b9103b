package dev.outlierlab.live.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.ManualClock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The meters read what the pool decided, under Envoy's names, per endpoint, from one snapshot per scrape. */
class LivePoolMetersTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static LivePool envoy() {
        return LivePoolBuilder.envoy(
                        "search",
                        OutlierDetectionConfig.builder()
                                .set(OutlierSetting.CONSECUTIVE_5XX, 3)
                                .set(OutlierSetting.MAX_EJECTION_PERCENT, 100)
                                .build(),
                        0)
                .clock(new ManualClock())
                .seed(1)
                .endpoints("a", "b", "c")
                .build();
    }

    @Test
    void envoyProfileUsesEnvoysStatNamesAndCountsRequestsAsRequests() {
        LivePool pool = envoy();
        LivePoolMeters.bind(pool, registry, Duration.ZERO);
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("a"), 503);
        }
        for (int i = 0; i < 5; i++) {
            pool.filter();
        }
        assertThat(registry.get("envoy_cluster.outlier_detection.ejections_active")
                        .tag("envoy_cluster_name", "search")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(registry.get("envoy_cluster.outlier_detection.ejections_enforced_total")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("envoy_cluster.outlier_detection.ejections_detected_consecutive_5xx")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        // One ejection, five requests diverted: the stage counter counts requests, and says so.
        assertThat(registry.get("outlier_lab.stage.requests")
                        .tag("action", "eject")
                        .functionCounter()
                        .count())
                .isEqualTo(5);
        assertThat(registry.get("outlier_lab.outcomes")
                        .tag("result", "applied")
                        .functionCounter()
                        .count())
                .isEqualTo(3);
        assertThat(registry.get("outlier_lab.mode").tag("mode", "prod").gauge().value())
                .isEqualTo(1);
        assertThat(registry.get("envoy_cluster.outlier_detection.host.ejected")
                        .tag("endpoint", "a")
                        .gauge()
                        .value())
                .isEqualTo(1);
        assertThat(registry.get("envoy_cluster.outlier_detection.host.ejected")
                        .tag("endpoint", "b")
                        .gauge()
                        .value())
                .isZero();
        assertThat(registry.get("envoy_cluster.outlier_detection.host.ejections")
                        .tag("endpoint", "a")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void aScrapeReadsOneSnapshotAndEndpointMetersFollowMembership() {
        LivePool pool = envoy();
        LivePoolMeters meters = LivePoolMeters.bind(pool, registry, Duration.ofHours(1));
        long before = meters.snapshotsTaken();
        double sum = 0;
        for (Meter m : registry.getMeters()) {
            for (var measurement : m.measure()) {
                sum += measurement.getValue();
            }
        }
        assertThat(registry.getMeters().size()).isGreaterThan(20);
        assertThat(meters.snapshotsTaken()).isEqualTo(before);
        assertThat(sum).isEqualTo(1); // the prod mode gauge
        LivePoolMeters fresh = LivePoolMeters.bind(pool, new SimpleMeterRegistry(), Duration.ZERO);
        pool.remove(pool.endpoint("c"));
        pool.add("d");
        fresh.snapshot();
        SimpleMeterRegistry r = (SimpleMeterRegistry) registryOf(fresh);
        assertThat(r.find("envoy_cluster.outlier_detection.host.ejected")
                        .tag("endpoint", "c")
                        .gauge())
                .isNull();
        assertThat(r.find("envoy_cluster.outlier_detection.host.ejected")
                        .tag("endpoint", "d")
                        .gauge())
                .isNotNull();
    }

    private static Object registryOf(LivePoolMeters m) {
        try {
            var f = LivePoolMeters.class.getDeclaredField("registry");
            f.setAccessible(true);
            return f.get(m);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void gatewayProfileCountsItsStages() {
        LivePool pool = LivePoolBuilder.gateway(
                        "gpt-5", GatewayConfig.defaults().withMode(StageMode.SHADOW))
                .clock(new ManualClock())
                .endpoints("azure", "openai")
                .build();
        LivePoolMeters.bind(pool, registry, Duration.ZERO);
        for (int i = 0; i < 3; i++) {
            pool.record(pool.endpoint("azure"), 500);
        }
        pool.filter();
        pool.filter();
        assertThat(registry.get("outlier_lab.stage.requests")
                        .tags("envoy_cluster_name", "gpt-5", "action", "would_eject")
                        .functionCounter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get("outlier_lab.stage.requests")
                        .tag("action", "eject")
                        .functionCounter()
                        .count())
                .isZero();
        assertThat(registry.get("envoy_cluster.outlier_detection.ejections_consecutive")
                        .tag("profile", "gateway")
                        .functionCounter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get("outlier_lab.mode")
                        .tag("mode", "shadow")
                        .gauge()
                        .value())
                .isEqualTo(1);
    }
}
