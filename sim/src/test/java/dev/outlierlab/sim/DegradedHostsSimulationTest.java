package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.DegradationEvent;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.traffic.LoadBalancer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Degraded hosts end to end (Envoy 1.38's {@code detect_degraded_hosts}, envoyproxy/envoy pull 41852, with the load
 * balancer's healthy and degraded priority loads of {@code LoadBalancerBase::recalculatePerPriorityState}): hosts
 * answering 200 with {@code x-envoy-degraded} are marked degraded, stay in rotation at a lower priority and are
 * cleared with their own backoff; nothing fails and nothing is ejected.
 */
class DegradedHostsSimulationTest {
    private static final long S = Durations.SECOND;

    @Test
    void theBalancerSendsDegradedHostsOnlyWhatTheHealthyOnesCannotTake() {
        LoadBalancer lb = new LoadBalancer(6, 50);
        lb.setDegraded(0, true);
        int[] counts = new int[6];
        for (long i = 0; i < 600; i++) {
            counts[lb.pick(i)]++;
        }
        // five healthy of six: 140 * 5 / 6 = 116 -> the healthy hosts take everything
        assertThat(counts).containsExactly(0, 120, 120, 120, 120, 120);
        assertThat(lb.splitsByPriorityLoad()).isFalse();
        // three healthy, two degraded, one ejected: availability 70 and 46 -> 70 % healthy, 30 % degraded
        lb.setDegraded(1, true);
        lb.setEjected(2, true);
        counts = new int[6];
        for (long i = 0; i < 1000; i++) {
            counts[lb.pick(i)]++;
        }
        assertThat(counts).containsExactly(150, 150, 0, 234, 233, 233);
        assertThat(lb.inPanic()).isFalse();
        assertThat(lb.healthyCount()).isEqualTo(3);
        assertThat(lb.degradedCount()).isEqualTo(2);
        // two healthy (33 %) and one degraded (17 %) of six: 50 % is not below the threshold, no panic;
        // availability 46 + 23 = 69: 66 % healthy, 33 % degraded, the remainder to the healthy ones
        lb.setEjected(3, true);
        lb.setDegraded(1, false);
        lb.setEjected(1, true);
        counts = new int[6];
        for (long i = 0; i < 100; i++) {
            counts[lb.pick(i)]++;
        }
        assertThat(lb.inPanic()).isFalse();
        assertThat(counts).containsExactly(33, 0, 0, 0, 34, 33);
    }

    @Test
    void threeDegradedHostsOfSixTakeThirtyPercentAndAreMarkedAndClearedWithTheirBackoff() {
        Scenario s = scenario(true);
        RunResult r = Simulation.run(s);
        assertThat(r.summary().failed()).isZero();
        assertThat(r.summary().ejectionsEnforced()).isZero();
        assertThat(r.stats())
                .containsEntry("ejections_detected_degradation", 6L)
                .containsEntry("ejections_active", 0L);
        List<String> marks =
                r.degradations().stream().map(DegradationEvent::jsonName).toList();
        assertThat(marks)
                .containsExactly(
                        "degrade",
                        "degrade",
                        "degrade",
                        "undegrade",
                        "degrade",
                        "undegrade",
                        "undegrade",
                        "degrade",
                        "degrade",
                        "undegrade",
                        "undegrade",
                        "undegrade");
        // host-0 is marked by its first degraded answer at 30 s, cleared at the tick at 60 s (30 s x backoff 1),
        // marked again at once with backoff 2 (60 s) and cleared at 130 s
        List<DegradationEvent> host0 =
                r.degradations().stream().filter(d -> d.host().equals("host-0")).toList();
        assertThat(host0)
                .extracting(DegradationEvent::timeNanos)
                .containsExactly(30 * S, 60 * S, 60 * S + 3_333_333, 130 * S);
        assertThat(host0).extracting(DegradationEvent::multiplier).containsExactly(1L, 1L, 2L, 2L);
        // during the fault (30 s to 90 s, 36,000 requests) the degraded hosts share 30 % of the traffic
        long degradedShare = r.hosts().subList(0, 3).stream()
                .mapToLong(HostTally::requestsDuringFault)
                .sum();
        long healthyShare = r.hosts().subList(3, 6).stream()
                .mapToLong(HostTally::requestsDuringFault)
                .sum();
        assertThat(degradedShare + healthyShare).isEqualTo(36_000);
        assertThat(degradedShare).isBetween(10_790L, 10_820L);

        // without detect_degraded_hosts the header changes nothing: an even spread, no mark
        RunResult off = Simulation.run(scenario(false));
        assertThat(off.degradations()).isEmpty();
        assertThat(off.stats()).containsEntry("ejections_detected_degradation", 0L);
        assertThat(off.hosts())
                .allSatisfy(h -> assertThat(h.requestsDuringFault()).isEqualTo(6_000));
    }

    private static Scenario scenario(boolean detect) {
        OutlierDetectionConfig config = OutlierDetectionConfig.builder()
                .set(OutlierSetting.DETECT_DEGRADED_HOSTS, detect)
                .build();
        FaultSpec degraded = FaultSpec.builder()
                .hosts(List.of("host-0", "host-1", "host-2"))
                .window(30 * S, 90 * S)
                .errorRatePpm(FaultSpec.PPM)
                .degraded(true)
                .build();
        return Scenario.builder()
                .name("degraded-hosts")
                .durationNanos(150 * S)
                .seed(1)
                .cluster(ClusterSpec.ofCount(6, 50))
                .traffic(new TrafficSpec(600))
                .faults(List.of(degraded))
                .outlierDetection(config)
                .build();
    }
}
