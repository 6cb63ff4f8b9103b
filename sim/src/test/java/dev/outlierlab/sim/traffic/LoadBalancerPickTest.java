package dev.outlierlab.sim.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A pick is the {@code i mod n}-th eligible host whatever happened before it: the remainder carried from one
 * request to the next is the division's, through ejections, returns, panic and request numbers that skip.
 */
class LoadBalancerPickTest {
    @Test
    void carriedRemainderEqualsTheDivision() {
        SplittableRandom random = new SplittableRandom(11);
        int picks = 0;
        for (int run = 0; run < 50; run++) {
            int hosts = 1 + random.nextInt(12);
            LoadBalancer balancer = new LoadBalancer(hosts, random.nextInt(3) * 30);
            boolean[] ejected = new boolean[hosts];
            long i = random.nextInt(1000);
            for (int k = 0; k < 5_000; k++) {
                if (random.nextInt(40) == 0) {
                    int h = random.nextInt(hosts);
                    ejected[h] = !ejected[h];
                    balancer.setEjected(h, ejected[h]);
                }
                i += random.nextInt(50) == 0 ? 1 + random.nextInt(100) : 1;
                List<Integer> eligible = new ArrayList<>();
                for (int h = 0; h < hosts; h++) {
                    if (!ejected[h] || balancer.inPanic()) {
                        eligible.add(h);
                    }
                }
                int expected = eligible.isEmpty() ? -1 : eligible.get((int) (i % eligible.size()));
                assertThat(balancer.pick(i)).as("run %d, request %d", run, i).isEqualTo(expected);
                picks++;
            }
        }
        assertThat(picks).isEqualTo(250_000);
    }
}
