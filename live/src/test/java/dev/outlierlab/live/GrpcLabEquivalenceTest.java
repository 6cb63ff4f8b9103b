package dev.outlierlab.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.XdsOutlierMapping;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.grpc.GrpcProfile;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.traffic.EvenSendTimes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A live pool of the gRPC profile on a {@link ManualClock}, fed the lab's traffic (call {@code i} at its send time to
 * the {@code i mod n}-th candidate the pool leaves, failing as the scenario's faults say), makes the lab's decisions,
 * event for event: the live wrapper runs the same detector.
 */
class GrpcLabEquivalenceTest {
    @Test
    void theDefaultScenarioThroughAPoolGivesTheLabsEjectionsAndReturns() {
        Scenario scenario = Scenario.defaults();
        GrpcOutlierConfig config = XdsOutlierMapping.of(OutlierDetectionConfig.defaults(), GrpcImplementation.JAVA)
                .config();
        List<OutlierEvent> lab =
                new GrpcProfile(config).run(scenario, RunOptions.DEFAULT).events();

        ManualClock clock = new ManualClock();
        LivePool pool = LivePoolBuilder.grpc("grpc", config)
                .clock(clock)
                .seed(scenario.seed())
                .endpoints(scenario.cluster().hosts())
                .build();
        List<OutlierEvent> live = new ArrayList<>();
        pool.addListener(new LiveListener() {
            @Override
            public void onDecision(LiveDecision decision) {
                live.add((OutlierEvent) decision.detail());
            }
        });
        Map<String, Integer> index = new HashMap<>();
        List<Endpoint> endpoints = pool.endpoints();
        for (int h = 0; h < endpoints.size(); h++) {
            index.put(endpoints.get(h).name(), h);
        }
        FaultInjector faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        EvenSendTimes times = new EvenSendTimes(scenario.traffic().rps());
        for (long i = 0; i < scenario.requestCount(); i++) {
            long t = times.next();
            clock.set(t);
            List<Endpoint> candidates = pool.filter().candidates();
            Endpoint e = candidates.get((int) (i % candidates.size()));
            boolean failed = faults.onRequest(index.get(e.name()), t) != FaultInjector.PASS;
            pool.record(e, failed ? 503 : 200, t);
        }
        clock.set(scenario.durationNanos());
        pool.runDue();

        assertThat(lab).hasSize(6);
        assertThat(live).isEqualTo(lab);
        assertThat(pool.profile()).isEqualTo("grpc");
    }
}
