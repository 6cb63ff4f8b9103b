package dev.outlierlab.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.stage.StageMode;
import org.junit.jupiter.api.Test;

/** The gateway defaults and the messages for settings the gateway cannot take. */
class GatewayConfigTest {
    static final long S = Durations.SECOND;

    @Test
    void defaultsAreTheSeedsTable() {
        GatewayConfig d = GatewayConfig.defaults();
        assertThat(d.mode()).isEqualTo(StageMode.PROD);
        assertThat(d.windowNanos()).isEqualTo(60 * S);
        assertThat(d.buckets()).isEqualTo(60);
        assertThat(d.minRequests()).isEqualTo(5);
        assertThat(d.stdevFactor()).isEqualTo(2.0);
        assertThat(d.peerSet()).isEqualTo(PeerSet.ALL);
        assertThat(d.minStdevPercent()).isEqualTo(1.0);
        assertThat(d.consecutiveFailures()).isEqualTo(3);
        assertThat(d.ejectionTimeNanos()).isEqualTo(30 * S);
        assertThat(d.processes()).isEqualTo(1);
    }

    @Test
    void badSettingsNameTheKeyTheValueAndWhatIsAllowed() {
        assertThatThrownBy(() -> new GatewayConfig(
                        StageMode.PROD, 2500 * Durations.MILLISECOND, S, 5, 2, PeerSet.ALL, 1, 3, 30 * S, 1))
                .hasMessage("gateway.window: 2.500s is not allowed; expected a whole number of "
                        + "buckets (bucket is 1s), such as 2s");
        assertThatThrownBy(() -> new GatewayConfig(StageMode.PROD, 60 * S, S, 5, -1, PeerSet.ALL, 1, 3, 30 * S, 1))
                .hasMessage("gateway.stdev_factor: -1.0 is not allowed; expected a number of 0 or more, such as 2.0");
        assertThatThrownBy(() -> new GatewayConfig(StageMode.PROD, 60 * S, S, 0, 2, PeerSet.ALL, 1, 3, 30 * S, 1))
                .hasMessageStartingWith("gateway.min_requests: 0");
        assertThatThrownBy(() -> new GatewayConfig(StageMode.PROD, 60 * S, S, 5, 2, PeerSet.ALL, -0.5, 3, 30 * S, 1))
                .hasMessageStartingWith("gateway.min_stdev: -0.5");
        assertThatThrownBy(() -> new GatewayConfig(StageMode.PROD, 60 * S, S, 5, 2, PeerSet.ALL, 1, 3, 0, 1))
                .hasMessageStartingWith("gateway.ejection_time: 0s");
        assertThatThrownBy(() -> new GatewayConfig(StageMode.PROD, 60 * S, S, 5, 2, PeerSet.ALL, 1, 3, 30 * S, 0))
                .hasMessageStartingWith("gateway.processes: 0");
        assertThatThrownBy(() -> new GatewayConfig(StageMode.PROD, 200_000 * S, S, 5, 2, PeerSet.ALL, 1, 3, 30 * S, 1))
                .hasMessageContaining("at most 100000 buckets");
        assertThatThrownBy(() -> StageMode.parse("gateway.mode", "on"))
                .hasMessage("gateway.mode: \"on\" is not allowed; expected one of off, shadow, prod");
        assertThatThrownBy(() -> PeerSet.parse("gateway.peer_set", "rest"))
                .hasMessage("gateway.peer_set: \"rest\" is not allowed; expected one of all, others");
    }
}
