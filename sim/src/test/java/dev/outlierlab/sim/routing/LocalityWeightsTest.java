package dev.outlierlab.sim.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.LbPolicy;
import dev.outlierlab.sim.scenario.LocalityWeights;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Envoy's locality-weighted pick ({@code locality_wrr.cc}: {@code effectiveLocalityWeight}, the EDF scheduler of
 * {@code edf_scheduler.h}, used by {@code ZoneAwareLoadBalancerBase::hostSourceToUse} with
 * {@code locality_weighted_lb_config}): the figures are Envoy's arithmetic, worked out in the comments.
 */
class LocalityWeightsTest {
    private static final List<String> HOSTS = ClusterSpec.ofCount(6, 50).hosts();
    private static final Map<String, String> THREE_ZONES =
            Map.of("host-0", "a", "host-1", "a", "host-2", "b", "host-3", "b", "host-4", "c", "host-5", "c");

    @Test
    void theSchedulerPicksInProportionToTheWeights() {
        // deadlines 1/w: weight 3 at 1/3, 2/3, 1; weight 1 at 1 (augmented by 1e-13, so a hair earlier): B B A B ...
        EdfScheduler edf = EdfScheduler.createWithPicks(new double[] {1, 3}, 0);
        int[] order = new int[8];
        for (int i = 0; i < order.length; i++) {
            order[i] = edf.pickAndAdd();
        }
        assertThat(order).containsExactly(1, 1, 0, 1, 1, 1, 0, 1);
    }

    @Test
    void preparedPicksLeaveTheSchedulerWherePickingOneByOneWould() {
        // createWithPicks's contract: the state after P emulated picks is that after P picks from empty, but for the
        // floating-point rounding of the emulated deadlines: the next picks' counts agree within one
        double[] w = {2.5, 1.3, 4.1};
        SeededRandom random = new SeededRandom(7);
        for (int trial = 0; trial < 20; trial++) {
            long picks = random.next() & 0xFFFFL;
            EdfScheduler fromEmpty = EdfScheduler.createWithPicks(w, 0);
            for (long i = 0; i < picks; i++) {
                fromEmpty.pickAndAdd();
            }
            EdfScheduler prepared = EdfScheduler.createWithPicks(w, picks);
            int[] a = new int[3];
            int[] b = new int[3];
            for (int i = 0; i < 790; i++) {
                a[prepared.pickAndAdd()]++;
                b[fromEmpty.pickAndAdd()]++;
            }
            for (int e = 0; e < 3; e++) {
                assertThat(a[e]).as("pre-picks %d, entry %d", picks, e).isBetween(b[e] - 1, b[e] + 1);
            }
            // 790 picks at weights 2.5 : 1.3 : 4.1 (sum 7.9): 250, 130, 410
            assertThat(a[0]).isBetween(249, 251);
            assertThat(a[2]).isBetween(409, 411);
        }
    }

    @Test
    void anEjectedPodLowersItsLocalitysEffectiveWeightByItsAvailability() {
        // weights a 4, b 2, c 1; host-0 (zone a) ejected: a's availability min(1, 1.4 * 1/2) = 0.7, effective 2.8;
        // b 2, c 1: of 5.8, host-1 takes 2.8 / 5.8 = 48.3 %, b's pods 2 / 5.8 / 2 = 17.2 % each, c's 8.6 % each
        RoutingSpec routing = RoutingSpec.NONE
                .withLocality(THREE_ZONES, List.of(), false)
                .withLocalityWeights(new LocalityWeights(true, Map.of("a", 4, "b", 2, "c", 1)));
        assertThat(routing.needsRouter()).isTrue();
        LoadBalancer balancer = new LoadBalancer(6, 50);
        PriorityRouter router = PriorityRouter.forCaller(routing, 50, HOSTS, 0, 1, balancer);
        // nothing ejected: 4 : 2 : 1 by locality, each locality's pods by round robin
        long[] n = picks(router, 7_000);
        assertThat(n).containsExactly(2_000, 2_000, 1_000, 1_000, 500, 500);
        balancer.setEjected(0, true);
        assertThat(router.expectedShares()[1]).isCloseTo(100 * 2.8 / 5.8, within(1e-9));
        n = picks(router, 58_000);
        assertThat(n[0]).isZero();
        assertThat(n[1]).isBetween(27_999L, 28_001L);
        assertThat(n[2]).isBetween(9_999L, 10_001L);
        assertThat(n[3]).isBetween(9_999L, 10_001L);
        assertThat(n[4]).isBetween(4_999L, 5_001L);
        assertThat(n[5]).isBetween(4_999L, 5_001L);
    }

    @Test
    void aLocalityWithoutAWeightGetsNothingAndLeastRequestPicksWithinTheChosenLocality() {
        RoutingSpec routing = RoutingSpec.builder()
                .lbPolicy(LbPolicy.LEAST_REQUEST)
                .zones(THREE_ZONES)
                .build()
                .withLocalityWeights(new LocalityWeights(true, Map.of("a", 1, "b", 1)));
        PriorityRouter router = PriorityRouter.forCaller(routing, 50, HOSTS, 0, 3, new LoadBalancer(6, 50));
        long[] n = picks(router, 10_000);
        // c has weight 0; a and b alternate, each locality's two pods drawn at random
        assertThat(n[4] + n[5]).isZero();
        assertThat(n[0] + n[1]).isEqualTo(5_000);
        assertThat(n[2] + n[3]).isEqualTo(5_000);
        assertThat(n[0]).isBetween(2_300L, 2_700L);
    }

    private static long[] picks(PriorityRouter router, int count) {
        long[] n = new long[6];
        for (int i = 0; i < count; i++) {
            n[router.pick()]++;
        }
        return n;
    }
}
