package dev.outlierlab.live;

import static dev.outlierlab.live.LiveFixtures.S;
import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The gateway profile in a live pool: the gateway defaults, on an injected clock. */
class GatewayPoolTest {
    private final ManualClock clock = new ManualClock();
    private final LiveFixtures.Recorder seen = new LiveFixtures.Recorder();

    private LivePool pool(GatewayConfig config, String... names) {
        LivePool pool = LivePoolBuilder.gateway("gpt-5", config)
                .clock(clock)
                .endpoints(names)
                .build();
        pool.addListener(seen);
        return pool;
    }

    @Test
    void theHardTripEjectsOnTheThirdFailureForThirtySecondsThenItReturnsAtTheNextLook() {
        LivePool pool = pool(GatewayConfig.defaults(), "azure", "openai");
        Endpoint azure = pool.endpoint("azure");
        clock.set(1 * S);
        pool.record(azure, 503);
        pool.record(azure, LocalFailure.TIMEOUT);
        assertThat(pool.filter().stage()).isNull();
        pool.record(azure, LocalFailure.RESET);
        Selection s = pool.filter();
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("openai");
        assertThat(s.stage().action()).isEqualTo(StageAction.EJECT);
        assertThat(seen.decisions).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(DecisionKind.EJECT);
            assertThat(d.reason()).isEqualTo("consecutive");
            assertThat(d.timeNanos()).isEqualTo(1 * S);
        });
        clock.set(31 * S - 1);
        assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("openai");
        clock.set(31 * S);
        assertThat(pool.filter().candidates()).extracting(Endpoint::name).containsExactly("azure", "openai");
        assertThat(seen.decisions.get(1).kind()).isEqualTo(DecisionKind.RETURN);
        assertThat(seen.decisions.get(1).timeNanos()).isEqualTo(31 * S);
    }

    @Test
    void fourHundredsCountAsSuccessAndOneEndpointIsKeptByTheGuard() {
        LivePool pool = pool(GatewayConfig.defaults(), "only");
        Endpoint only = pool.endpoint("only");
        for (int i = 0; i < 10; i++) {
            pool.record(only, 400);
        }
        assertThat(pool.filter().stage()).isNull();
        for (int i = 0; i < 3; i++) {
            pool.record(only, 500);
        }
        Selection s = pool.filter();
        assertThat(s.candidates()).containsExactly(only);
        assertThat(s.stage().action()).isEqualTo(StageAction.KEPT_ALL);
    }

    @Test
    void shadowStartsFromTheSettingsModeAndNamesWithoutRemoving() {
        LivePool pool = pool(GatewayConfig.defaults().withMode(StageMode.SHADOW), "a", "b", "c");
        assertThat(pool.mode()).isEqualTo(StageMode.SHADOW);
        Endpoint b = pool.endpoint("b");
        for (int i = 0; i < 3; i++) {
            pool.record(b, 502);
        }
        Selection s = pool.filter(List.of(b, pool.endpoint("c")));
        assertThat(s.candidates()).extracting(Endpoint::name).containsExactly("b", "c");
        assertThat(s.stage().action()).isEqualTo(StageAction.WOULD_EJECT);
        assertThat(s.stage().endpoints()).containsExactly("b");
    }

    @Test
    void membershipChangesKeepTheOtherEndpointsWindowsCountsAndEjections() {
        LivePool pool = pool(GatewayConfig.defaults(), "a", "b", "c");
        Endpoint a = pool.endpoint("a");
        Endpoint b = pool.endpoint("b");
        Endpoint c = pool.endpoint("c");
        clock.set(1 * S);
        for (int i = 0; i < 3; i++) {
            pool.record(a, 503);
        }
        pool.record(b, 200);
        pool.record(b, 503);
        pool.record(b, 503);
        pool.record(c, 200);
        assertThat(pool.snapshot().ejected()).containsExactly("a");
        // Adding d and removing c leave a ejected and b's two failures in a row: the third trips it.
        clock.set(2 * S);
        Endpoint d = pool.add("d");
        assertThat(pool.remove(c)).isTrue();
        PoolSnapshot kept = pool.snapshot();
        assertThat(kept.endpoints())
                .extracting(EndpointState::name, EndpointState::ejected, EndpointState::consecutiveFailures)
                .containsExactly(Tuple.tuple("a", true, 0L), Tuple.tuple("b", false, 2L), Tuple.tuple("d", false, 0L));
        pool.record(b, 503);
        pool.record(d, 503);
        assertThat(pool.filter().candidates()).containsExactly(d);
        assertThat(seen.decisions)
                .extracting(x -> x.kind() + " " + x.endpoint() + " " + x.timeNanos() / S)
                .containsExactly("EJECT a 1", "EJECT b 2");
        // a returns at 31 s, its ejection's end, not at the membership change.
        clock.set(31 * S);
        pool.filter();
        assertThat(seen.decisions)
                .extracting(x -> x.kind() + " " + x.endpoint() + " " + x.timeNanos() / S)
                .containsExactly("EJECT a 1", "EJECT b 2", "RETURN a 31");
        // Removing an ejected endpoint: it leaves without a return, and no longer counts as ejected (Envoy).
        assertThat(pool.remove(b)).isTrue();
        PoolSnapshot after = pool.snapshot();
        assertThat(after.detectorStats())
                .containsEntry("ejections_active", 0L)
                .containsEntry("returns", 1L)
                .containsEntry("ejections_consecutive", 2L);
        assertThat(seen.decisions).hasSize(3);
        assertThat(after.endpoints()).extracting(EndpointState::name).containsExactly("a", "d");
        assertThat(after.endpoints().get(1).consecutiveFailures()).isEqualTo(1);
    }
}
