package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A host's requests over callers whose lists differ in size: the walk from where the last one was found (the cursor a
 * failing host's plan keeps) gives the same request as the rank of the host's requests counted anew, and both agree
 * with the callers' round robins walked request by request.
 */
class HostRequestsTest {
    @Test
    void walkingOnFromTheLastRequestFoundIsTheRankCountedAnew() {
        SplittableRandom random = new SplittableRandom(0x5EEDL);
        int checked = 0;
        for (int n = 0; n < 60; n++) {
            int hosts = 2 + random.nextInt(12);
            int callers = 1 + random.nextInt(20);
            HostRequests requests = new HostRequests(callers, hosts);
            LoadBalancer[] balancers = new LoadBalancer[callers];
            CallerRotation[] rotations = new CallerRotation[callers];
            boolean[] none = new boolean[hosts];
            for (int c = 0; c < callers; c++) {
                balancers[c] = new LoadBalancer(hosts, 0);
                // each caller ejects a few hosts of its own, so that the lists differ in size
                for (int k = random.nextInt(Math.max(1, hosts / 2)); k > 0; k--) {
                    balancers[c].setEjected(random.nextInt(hosts), true);
                }
                rotations[c] = new CallerRotation(c, callers, hosts);
                rotations[c].start(0, balancers[c], none);
                requests.join(c, rotations[c], balancers[c].version());
            }
            for (int h = 0; h < hosts; h++) {
                // the host's requests in send order, walked request by request (caller c's request j is jC + c)
                long[] sent = new long[64];
                int m = 0;
                for (long i = 0; m < sent.length && i < 200_000; i++) {
                    int c = (int) (i % callers);
                    CallerRotation r = rotations[c];
                    if (r.size() > 0 && r.hostAt((int) ((i / callers + c) % r.size())) == h) {
                        sent[m++] = i;
                    }
                }
                if (m < 8) {
                    continue;
                }
                // from a request of the host, a few ahead, then from just past the one found, as failures follow
                long y = sent[1];
                int at = 1;
                while (at < m) {
                    int k = random.nextInt(4);
                    if (at + k >= m) {
                        break;
                    }
                    // the walk first, from just past the last request found: its cursor goes on from there
                    long walked = requests.walk(h, y, k);
                    assertThat(walked).isEqualTo(sent[at + k]);
                    assertThat(requests.rank(h, requests.below(h, y) + k)).isEqualTo(walked);
                    y = walked + 1;
                    at += k + 1;
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(500);
    }
}
