package dev.outlierlab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import dev.outlierlab.engine.stage.StageMode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Durations as java.time.Duration, messages that name the setting, the gateway builder, caps and their warnings. */
class SettingsApiTest {
    @Test
    void durationsAreDurationsAndARawTenIsRefusedNamingTheSetting() {
        OutlierDetectionConfig c = OutlierDetectionConfig.builder()
                .set(OutlierSetting.INTERVAL, Duration.ofSeconds(10))
                .set(OutlierSetting.BASE_EJECTION_TIME, Duration.ofSeconds(30))
                .build();
        assertThat(c.intervalNanos()).isEqualTo(10_000_000_000L);
        OutlierDetectionConfig tenNanos = OutlierDetectionConfig.builder()
                .set(OutlierSetting.INTERVAL, 10)
                .build();
        assertThatThrownBy(() -> LivePoolBuilder.envoy("p", tenNanos))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith(
                        "interval: 0.000000010s is not allowed; expected a whole number of milliseconds, at least 1ms")
                .hasMessageContaining("set(INTERVAL, Duration.ofSeconds(10))");
        assertThatThrownBy(() ->
                        OutlierDetectionConfig.builder().set(OutlierSetting.CONSECUTIVE_5XX, Duration.ofSeconds(1)))
                .hasMessage("consecutive_5xx: PT1S is not allowed; expected a count, not a duration");
        assertThatThrownBy(() -> OutlierDetectionConfig.builder()
                        .set(OutlierSetting.INTERVAL, Duration.ofDays(-1))
                        .build())
                .hasMessageStartingWith("interval: ");
    }

    @Test
    void theGatewayBuilderNamesEachSetting() {
        GatewayConfig g = GatewayConfig.builder()
                .window(Duration.ofSeconds(30))
                .bucket(Duration.ofMillis(500))
                .minRequests(10)
                .peerSet(PeerSet.OTHERS)
                .ejectionTime(Duration.ofMinutes(1))
                .mode(StageMode.SHADOW)
                .build();
        assertThat(g.windowNanos()).isEqualTo(30_000_000_000L);
        assertThat(g.buckets()).isEqualTo(60);
        assertThat(g.ejectionTimeNanos()).isEqualTo(60_000_000_000L);
        assertThat(g.consecutiveFailures()).isEqualTo(GatewayConfig.defaults().consecutiveFailures());
        assertThatThrownBy(() ->
                        GatewayConfig.builder().window(Duration.ofMillis(1500)).build())
                .hasMessageStartingWith("gateway.window: 1.500s is not allowed; expected a whole number of buckets");
        assertThatThrownBy(() ->
                        GatewayConfig.builder().ejectionTime(Duration.ZERO).build())
                .hasMessageStartingWith("gateway.ejection_time: ");
    }

    @Test
    void envoysDefaultsWithThreeHostsWarnThatNothingCanBeEjected() {
        LivePool pool = LivePoolBuilder.envoy("p", OutlierDetectionConfig.defaults())
                .endpoints("a", "b", "c")
                .build();
        assertThat(pool.warnings())
                .anySatisfy(w -> assertThat(w)
                        .startsWith(
                                "cap-admits-no-host-below: max_ejection_percent 10 admits no host of 3: outlier detection never ejects "
                                        + "here; set max_ejection_percent to 34 or more"));
        for (int i = 0; i < 20; i++) {
            pool.record(pool.endpoint("a"), 503);
        }
        assertThat(pool.snapshot().endpoints().get(0).ejected()).isFalse();
        LivePool fine = LivePoolBuilder.envoy(
                        "p",
                        OutlierDetectionConfig.builder()
                                .set(OutlierSetting.MAX_EJECTION_PERCENT, 34)
                                .build())
                .endpoints("a", "b", "c")
                .build();
        assertThat(fine.warnings()).noneMatch(w -> w.startsWith("cap-"));
    }

    @Test
    void theGatewayCapIsOptionalAndRefusesOverflowingEjections() {
        ManualClock clock = new ManualClock();
        String[] names = {"e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"};
        LivePool uncapped = LivePoolBuilder.gateway("g", GatewayConfig.defaults())
                .clock(clock)
                .endpoints(names)
                .build();
        assertThat(uncapped.warnings()).singleElement().asString().startsWith("gateway-no-cap: ");
        LivePool capped = LivePoolBuilder.gateway("g", GatewayConfig.defaults())
                .clock(clock)
                .maxEjectionPercent(50)
                .endpoints(names)
                .build();
        assertThat(capped.warnings()).isEmpty();
        for (int e = 0; e < 9; e++) {
            for (int i = 0; i < 3; i++) {
                uncapped.record(uncapped.endpoint(names[e]), 503);
                capped.record(capped.endpoint(names[e]), 503);
            }
        }
        assertThat(uncapped.filter().candidates()).hasSize(1);
        assertThat(capped.filter().candidates()).hasSize(5);
        assertThat(capped.snapshot().detectorStats())
                .containsEntry("ejections_active", 5L)
                .containsEntry("ejections_overflow", 4L);
        assertThatThrownBy(() -> LivePoolBuilder.envoy("p", OutlierDetectionConfig.defaults())
                        .maxEjectionPercent(50))
                .hasMessageContaining("max_ejection_percent in its OutlierDetectionConfig");
        assertThatThrownBy(() ->
                        LivePoolBuilder.gateway("g", GatewayConfig.defaults()).maxEjectionPercent(101))
                .hasMessage(
                        "gateway.max_ejection_percent: 101 is not allowed; expected a whole percentage from 0 to 100 (100: no cap)");
    }
}
