package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.PeerSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Four gateway endpoints with the gateway profile's defaults: among four, no endpoint lies more than sqrt(3) = 1.73
 * standard deviations from the mean, so a factor at or above that cannot fire with peer_set all. The search offers
 * what {@code check} suggests (a factor that can fire, or comparing with the others only), never turns the hard trip
 * off while the statistical rule cannot fire, and the recommended file has none of check's warnings of that kind.
 */
class GatewayFourEndpointsTest {
    private static final Set<String> SCENARIOS = Set.of("one-host-partial", "one-host-dead-503", "shared-outage");

    @Test
    void fourEndpointsAreNeverLeftWithoutADetectorThatCanFire() {
        List<SuiteScenario> suite = new DefaultSuite(4, 200, 1, 0)
                .scenarios().stream().filter(s -> SCENARIOS.contains(s.name())).toList();
        TuneRequest base = ProfileTargetsTest.request(GatewayTuneTarget.INSTANCE, 4, 200, suite);
        // one seed: the runs are the same simulation, and the figures below do not hinge on a second seed
        TuneRequest req = TuneRequest.builder()
                .name(base.name())
                .hosts(4)
                .rps(200)
                .clients(1)
                .target(GatewayTuneTarget.INSTANCE)
                .envoyVersion(base.envoyVersion())
                .current(base.current())
                .currentPanicPercent(base.currentPanicPercent())
                .suite(suite)
                .screenSeeds(1)
                .seeds(1)
                .maxEjected(base.maxEjected())
                .baseErrorPpm(0)
                .threads(2)
                .currentProfile(base.currentProfile())
                .build();
        GatewayConfig defaults = ((GatewayRun) req.currentProfile()).gateway();
        List<Setting> candidates = SearchSpace.candidates(req);
        if (Math.sqrt(3) <= defaults.stdevFactor()) {
            assertThat(candidates).anyMatch(s -> s.gateway().stdevFactor() == 1.7);
            assertThat(candidates).anyMatch(s -> s.gateway().peerSet() == PeerSet.OTHERS);
        }
        assertThat(candidates)
                .noneMatch(s -> s.gateway().consecutiveFailures() == 0
                        && s.gateway().peerSet() == PeerSet.ALL
                        && s.gateway().stdevFactor() >= Math.sqrt(3));
        TuneResult r = Tuner.tune(req, u -> {});
        GatewayConfig best = r.recommended().setting().gateway();
        boolean canFire = best.peerSet() == PeerSet.OTHERS || Math.sqrt(3) > best.stdevFactor();
        assertThat(best.consecutiveFailures() > 0 || canFire)
                .as(r.recommended().setting().label())
                .isTrue();
        assertThat(r.recommendationFindings()).noneMatch(f -> f.contains("gateway-statistical-rule-cannot-fire"));
        // a dead endpoint is taken out: it does not cost a quarter of the requests for its whole outage
        ScenarioScore dead = r.recommended().score("one-host-dead-503");
        assertThat(dead.failedPercentDuringFault(true)).isGreaterThan(20);
        assertThat(dead.failedPercentDuringFault(false)).isLessThan(5);
        assertThat(dead.detectSeconds()).isLessThan(10);
    }
}
