package dev.outlierlab.sim.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Envoy's EDF weighted round robin, pick by pick, and its rebuild when a host leaves rotation. */
class WeightedRoundRobinTest {
    private static List<Integer> picks(WeightedRoundRobin wrr, LoadBalancer lb, int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(wrr.pick(lb, i));
        }
        return out;
    }

    @Test
    void earliestDeadlineFirstWithTiesToTheEarlierEntry() {
        LoadBalancer lb = new LoadBalancer(3, 0);
        WeightedRoundRobin wrr = new WeightedRoundRobin(List.of("a", "b", "c"), Map.of("a", 3L));
        // deadlines a 1/3, b 1, c 1; a again at 2/3 and 1 (entered after b and c, so after them); then a at
        // 4/3, 5/3 and 1/3 added six times, 1.9999999999999998 in doubles, before b and c at 2.0, as in Envoy
        assertThat(picks(wrr, lb, 10)).containsExactly(0, 0, 1, 2, 0, 0, 0, 0, 1, 2);
    }

    @Test
    void aHostLeavingRotationRebuildsTheScheduleAndEqualWeightsFallBackToRoundRobin() {
        LoadBalancer lb = new LoadBalancer(3, 0);
        WeightedRoundRobin wrr = new WeightedRoundRobin(List.of("a", "b", "c"), Map.of("a", 3L));
        picks(wrr, lb, 4);
        lb.setEjected(0, true);
        // b and c weigh the same: plain round robin over the eligible hosts, i mod 2
        assertThat(List.of(wrr.pick(lb, 4), wrr.pick(lb, 5), wrr.pick(lb, 6))).containsExactly(1, 2, 1);
        lb.setEjected(0, false);
        assertThat(picks(wrr, lb, 5)).containsExactly(0, 0, 1, 2, 0);
    }
}
