package dev.outlierlab.engine.envoy;

import static dev.outlierlab.engine.envoy.Fixtures.S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.InvalidConfigException;
import org.junit.jupiter.api.Test;

/** Envoy's defaults and the values it rejects, each rejection naming the key. */
class ConfigValidationTest {

    private static InvalidConfigException rejected(OutlierDetectionConfig.Builder b) {
        try {
            b.build();
        } catch (InvalidConfigException e) {
            return e;
        }
        throw new AssertionError("expected the configuration to be rejected");
    }

    @Test
    void maxEjectionTimeBelowTheBaseIsRejected() {
        // Envoy's DetectorStaticConfigiInvalidMaxEjectTime: base 10 s, max 3 s
        InvalidConfigException e = rejected(OutlierDetectionConfig.builder()
                .set(OutlierSetting.BASE_EJECTION_TIME, 10 * S)
                .set(OutlierSetting.MAX_EJECTION_TIME, 3 * S));
        assertThat(e.key()).isEqualTo("max_ejection_time");
        assertThat(e.value()).isEqualTo("3s");
        assertThat(e.getMessage()).contains("max_ejection_time").contains("base_ejection_time");
    }

    @Test
    void maxEjectionTimeEqualToTheBaseIsAccepted() {
        OutlierDetectionConfig c = OutlierDetectionConfig.builder()
                .set(OutlierSetting.BASE_EJECTION_TIME, 10 * S)
                .set(OutlierSetting.MAX_EJECTION_TIME, 10 * S)
                .build();
        assertThat(c.maxEjectionTimeNanos()).isEqualTo(10 * S);
    }

    @Test
    void aPercentageOver100IsRejected() {
        for (OutlierSetting s : new OutlierSetting[] {
            OutlierSetting.MAX_EJECTION_PERCENT,
            OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
            OutlierSetting.ENFORCING_SUCCESS_RATE,
            OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD
        }) {
            InvalidConfigException e = rejected(OutlierDetectionConfig.builder().set(s, 101));
            assertThat(e.key()).isEqualTo(s.envoyName());
            assertThat(e.value()).isEqualTo("101");
            assertThat(e.getMessage()).startsWith(s.envoyName() + ":");
        }
        assertThat(OutlierDetectionConfig.builder()
                        .set(OutlierSetting.MAX_EJECTION_PERCENT, 100)
                        .build()
                        .maxEjectionPercent())
                .isEqualTo(100);
    }

    @Test
    void zeroIntervalAndBaseAreRejectedButZeroJitterIsFine() {
        InvalidConfigException e = rejected(OutlierDetectionConfig.builder().set(OutlierSetting.INTERVAL, 0));
        assertThat(e.key()).isEqualTo("interval");
        assertThat(e.getMessage()).contains("interval");
        assertThat(rejected(OutlierDetectionConfig.builder().set(OutlierSetting.BASE_EJECTION_TIME, 0))
                        .key())
                .isEqualTo("base_ejection_time");
        assertThat(OutlierDetectionConfig.builder()
                        .set(OutlierSetting.MAX_EJECTION_TIME_JITTER, 0)
                        .build()
                        .maxEjectionTimeJitterNanos())
                .isZero();
    }

    @Test
    void negativeCountsAndNonBooleanFlagsAreRejected() {
        assertThat(rejected(OutlierDetectionConfig.builder().set(OutlierSetting.CONSECUTIVE_5XX, -1))
                        .key())
                .isEqualTo("consecutive_5xx");
        assertThat(rejected(OutlierDetectionConfig.builder()
                                .set(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS, 4_294_967_296L))
                        .key())
                .isEqualTo("success_rate_minimum_hosts");
        assertThat(rejected(OutlierDetectionConfig.builder().set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, 2))
                        .key())
                .isEqualTo("always_eject_one_host");
        assertThatThrownBy(() -> OutlierDetectionConfig.builder()
                        .set(OutlierSetting.MAX_EJECTION_TIME_JITTER, -1)
                        .build())
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("max_ejection_time_jitter");
    }

    @Test
    void envoysDefaults() {
        OutlierDetectionConfig c = OutlierDetectionConfig.defaults();
        assertThat(c.consecutive5xx()).isEqualTo(5);
        assertThat(c.consecutiveGatewayFailure()).isEqualTo(5);
        assertThat(c.consecutiveLocalOriginFailure()).isEqualTo(5);
        assertThat(c.intervalNanos()).isEqualTo(10 * S);
        assertThat(c.baseEjectionTimeNanos()).isEqualTo(30 * S);
        assertThat(c.maxEjectionTimeNanos()).isEqualTo(300 * S);
        assertThat(c.maxEjectionTimeJitterNanos()).isZero();
        assertThat(c.maxEjectionPercent()).isEqualTo(10);
        assertThat(c.alwaysEjectOneHost()).isFalse();
        assertThat(c.splitExternalLocalOriginErrors()).isFalse();
        assertThat(c.successfulActiveHealthCheckUnejectHost()).isTrue();
        assertThat(c.successRateMinimumHosts()).isEqualTo(5);
        assertThat(c.successRateRequestVolume()).isEqualTo(100);
        assertThat(c.successRateStdevFactor()).isEqualTo(1900);
        assertThat(c.failurePercentageThreshold()).isEqualTo(85);
        assertThat(c.failurePercentageMinimumHosts()).isEqualTo(5);
        assertThat(c.failurePercentageRequestVolume()).isEqualTo(50);
        assertThat(c.enforcingPercent(EjectionType.CONSECUTIVE_5XX)).isEqualTo(100);
        assertThat(c.enforcingPercent(EjectionType.CONSECUTIVE_GATEWAY_FAILURE)).isZero();
        assertThat(c.enforcingPercent(EjectionType.SUCCESS_RATE)).isEqualTo(100);
        assertThat(c.enforcingPercent(EjectionType.CONSECUTIVE_LOCAL_ORIGIN_FAILURE))
                .isEqualTo(100);
        assertThat(c.enforcingPercent(EjectionType.SUCCESS_RATE_LOCAL_ORIGIN)).isEqualTo(100);
        assertThat(c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE)).isZero();
        assertThat(c.enforcingPercent(EjectionType.FAILURE_PERCENTAGE_LOCAL_ORIGIN))
                .isZero();
    }
}
