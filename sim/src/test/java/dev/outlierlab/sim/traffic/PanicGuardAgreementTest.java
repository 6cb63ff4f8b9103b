package dev.outlierlab.sim.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.EjectionState;
import dev.outlierlab.engine.envoy.PanicRule;
import dev.outlierlab.engine.stage.CandidateStage;
import dev.outlierlab.engine.stage.StageAction;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The engine's request stage with Envoy's panic guard gives the simulator's load balancer its eligible list:
 * over seeded random clusters, ejections and thresholds, the hosts left in the candidate list are the
 * balancer's eligible hosts, and "kept all" is exactly panic with a host ejected. So the Envoy profile can
 * use the shared stage.
 */
class PanicGuardAgreementTest {
    @Test
    void stageWithPanicGuardMatchesLoadBalancerEligibility() {
        Random random = new Random(20261130);
        for (int run = 0; run < 2000; run++) {
            int hosts = 1 + random.nextInt(12);
            double threshold = new double[] {0, 10, 33.4, 50, 66.7, 100}[random.nextInt(6)];
            boolean[] ejected = new boolean[hosts];
            LoadBalancer balancer = new LoadBalancer(hosts, threshold);
            for (int h = 0; h < hosts; h++) {
                ejected[h] = random.nextInt(3) == 0;
                balancer.setEjected(h, ejected[h]);
            }
            EjectionState state = new EjectionState() {
                @Override
                public int endpointCount() {
                    return hosts;
                }

                @Override
                public boolean isEjected(int endpoint) {
                    return ejected[endpoint];
                }
            };
            CandidateStage stage = new CandidateStage(
                    StageMode.PROD, state, null, PanicRule.of(threshold).guard());
            int[] list = new int[hosts];
            Arrays.setAll(list, h -> h);
            int n = stage.apply(list, hosts, 0);
            List<Integer> eligible = new ArrayList<>();
            for (long i = 0; i < hosts; i++) {
                int pick = balancer.pick(i);
                if (pick < 0 || (i > 0 && pick == eligible.get(0))) {
                    break;
                }
                eligible.add(pick);
            }
            assertThat(Arrays.stream(list, 0, n).boxed().toList())
                    .as("run %d", run)
                    .containsExactlyElementsOf(eligible);
            assertThat(stage.action() == StageAction.KEPT_ALL)
                    .as("run %d", run)
                    .isEqualTo(balancer.inPanic() && balancer.ejectedCount() > 0);
        }
    }
}
