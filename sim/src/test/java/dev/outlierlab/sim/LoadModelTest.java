package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.sim.overload.CapacityLimiter;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RateStep;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.signals.RequestOutcomes;
import dev.outlierlab.sim.signals.SignalSeries;
import dev.outlierlab.sim.traffic.ArrivalProcess;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The opt-in load model: arrivals, capacity over a sliding second, weighted round robin, and the property that
 * every request is accounted for exactly once (sent = served + failed for capacity + failed by a fault + no host).
 */
class LoadModelTest {
    private static final long S = Scenarios.S;

    private static Scenario scenario(
            int hosts, long rps, long durationNanos, List<FaultSpec> faults, LoadSpec load, Object... settings) {
        return Scenario.builder()
                .name("test")
                .durationNanos(durationNanos)
                .seed(7)
                .cluster(ClusterSpec.ofCount(hosts, 50))
                .traffic(new TrafficSpec(rps))
                .faults(faults)
                .outlierDetection(Scenarios.config(settings))
                .envoyVersion(EnvoyVersion.DEFAULT)
                .load(load)
                .build();
    }

    private static LoadSpec load(
            Map<String, Long> capacity, Map<String, Long> weights, Arrivals arrivals, List<RateStep> steps) {
        return new LoadSpec(capacity, 503, null, weights, arrivals, steps);
    }

    @Test
    void evenArrivalsWithoutStepsAreTheSpecsSendTimesExactly() {
        Scenario s = scenario(6, 7, 5 * S, List.of(), LoadSpec.NONE);
        ArrivalProcess a = new ArrivalProcess(s);
        for (long i = 0; i < s.requestCount(); i++) {
            assertThat(a.next()).isEqualTo(s.traffic().sendTimeNanos(i));
        }
        assertThat(a.next()).isEqualTo(-1);
    }

    @Test
    void stepsChangeTheRateAndAPieceAtZeroRpsSendsNothing() {
        LoadSpec l = load(
                Map.of(),
                Map.of(),
                Arrivals.EVEN,
                List.of(new RateStep(0, 0), new RateStep(2 * S, 4), new RateStep(3 * S, 2)));
        Scenario s = scenario(2, 100, 4 * S, List.of(), l);
        List<Long> times = new ArrayList<>();
        ArrivalProcess a = new ArrivalProcess(s);
        for (long t = a.next(); t >= 0; t = a.next()) {
            times.add(t);
        }
        assertThat(times)
                .containsExactly(
                        2 * S,
                        2 * S + 250_000_000L,
                        2 * S + 500_000_000L,
                        2 * S + 750_000_000L,
                        3 * S,
                        3 * S + 500_000_000L);
        assertThat(s.requestCount()).isEqualTo(6);
    }

    @Test
    void poissonArrivalsAreSeededAndAverageTheRate() {
        LoadSpec l = load(Map.of(), Map.of(), Arrivals.POISSON, List.of());
        Scenario s = scenario(2, 1000, 20 * S, List.of(), l);
        ArrivalProcess a = new ArrivalProcess(s);
        ArrivalProcess again = new ArrivalProcess(s);
        long n = 0;
        long previous = 0;
        for (long t = a.next(); t >= 0; t = a.next()) {
            assertThat(t).isGreaterThanOrEqualTo(previous).isEqualTo(again.next());
            previous = t;
            n++;
        }
        // 20,000 expected; a Poisson count has standard deviation sqrt(20,000) = 141
        assertThat(n).isBetween(19_500L, 20_500L);
    }

    @Test
    void capacityServesAtMostCInAnySlidingSecondAndOnlyServedRequestsCount() {
        CapacityLimiter limiter = new CapacityLimiter(List.of("a", "b"), Map.of("a", 3L));
        long ms = 1_000_000L;
        assertThat(limiter.admit(0, 0)).isTrue();
        assertThat(limiter.admit(0, 100 * ms)).isTrue();
        assertThat(limiter.admit(0, 200 * ms)).isTrue();
        assertThat(limiter.admit(0, 300 * ms)).isFalse();
        assertThat(limiter.admit(0, 999 * ms)).isFalse(); // the one at 0 is still within (t - 1 s, t]
        assertThat(limiter.admit(0, 1000 * ms)).isTrue(); // ... and leaves at exactly 1 s
        assertThat(limiter.admit(0, 1050 * ms)).isFalse();
        assertThat(limiter.admit(0, 1100 * ms)).isTrue();
        for (int k = 0; k < 100; k++) {
            assertThat(limiter.admit(1, k)).isTrue(); // no capacity: unlimited
        }
    }

    @Test
    void evenOverloadFailsExactlyTheExcessSpreadOutSoNothingStandsOut() {
        // five hosts of capacity 100 carry 600 rps: each serves 100 of its 120 a second
        LoadSpec l = load(
                Map.of("host-0", 100L, "host-1", 100L, "host-2", 100L, "host-3", 100L, "host-4", 100L),
                Map.of(),
                Arrivals.EVEN,
                List.of());
        RunResult r = Simulation.run(scenario(5, 600, 10 * S, List.of(), l));
        RequestOutcomes o = r.signals().outcomes();
        assertThat(o.sent()).isEqualTo(6_000);
        assertThat(o.failedCapacity()).isEqualTo(1_000); // each host serves 100 of its 120 a second: 5,000 served
        assertThat(r.summary().ejectionsEnforced()).isZero();
    }

    @Test
    void weightedRoundRobinSendsTrafficInProportionToWeightInEdfOrder() {
        LoadSpec l = load(Map.of(), Map.of("host-0", 3L), Arrivals.EVEN, List.of());
        // host-0 fails everything it gets; consecutive errors off so nothing is ejected
        FaultSpec f = FaultSpec.builder()
                .hosts(List.of("host-0"))
                .window(0, 10 * S)
                .errorRatePpm(1_000_000)
                .build();
        RunResult r = Simulation.run(scenario(
                3,
                500,
                10 * S,
                List.of(f),
                l,
                OutlierSetting.ENFORCING_CONSECUTIVE_5XX,
                0L,
                OutlierSetting.ENFORCING_SUCCESS_RATE,
                0L));
        // weights 3:1:1 -> host-0 takes 3/5 of 5,000
        assertThat(r.signals().outcomes().failedFault()).isEqualTo(3_000);
    }

    @Test
    void everyRequestIsAccountedForExactlyOnceOverSeededScenarios() {
        SeededRandom random = new SeededRandom(2026);
        for (int run = 0; run < 40; run++) {
            int hosts = 2 + (int) Long.remainderUnsigned(random.next(), 9);
            long rps = 50 + Long.remainderUnsigned(random.next(), 900);
            Map<String, Long> capacity = new HashMap<>();
            Map<String, Long> weights = new HashMap<>();
            for (int h = 0; h < hosts; h++) {
                if (random.next() % 3 != 0) {
                    capacity.put("host-" + h, 10 + Long.remainderUnsigned(random.next(), rps));
                }
                if (random.next() % 4 == 0) {
                    weights.put("host-" + h, 1 + Long.remainderUnsigned(random.next(), 5));
                }
            }
            Arrivals arrivals = random.next() % 2 == 0 ? Arrivals.EVEN : Arrivals.POISSON;
            List<RateStep> steps = random.next() % 2 == 0
                    ? List.of()
                    : List.of(new RateStep(20 * S, Long.remainderUnsigned(random.next(), 2 * rps)));
            int faulty = 1 + (int) Long.remainderUnsigned(random.next(), hosts);
            FaultSpec fault = FaultSpec.builder()
                    .hosts(Scenarios.firstHosts(faulty))
                    .window(10 * S, 40 * S)
                    .errorRatePpm(Long.remainderUnsigned(random.next(), 1_000_001))
                    .build();
            long cap = Long.remainderUnsigned(random.next(), 101);
            RunResult r = Simulation.run(scenario(
                    hosts,
                    rps,
                    60 * S,
                    List.of(fault),
                    load(capacity, weights, arrivals, steps),
                    OutlierSetting.MAX_EJECTION_PERCENT,
                    cap));
            RequestOutcomes o = r.signals().outcomes();
            String where = "run " + run + ": " + hosts + " hosts, " + rps + " rps, " + arrivals + ", cap " + cap;
            assertThat(o.ok() + o.failedCapacity() + o.failedFault() + o.failedNoHost())
                    .as(where)
                    .isEqualTo(o.sent());
            assertThat(o.sent()).as(where).isEqualTo(r.summary().requests());
            assertThat(o.failed()).as(where).isEqualTo(r.summary().failed());
            assertThat(o.failedNoHost()).as(where).isEqualTo(r.summary().noHealthyUpstream());
            SignalSeries s = r.signals();
            assertThat(Arrays.stream(s.requests()).sum()).as(where).isEqualTo(o.sent());
            assertThat(Arrays.stream(s.failed()).sum()).as(where).isEqualTo(o.failed());
            assertThat(Arrays.stream(s.ejectionsEnforced()).sum())
                    .as(where)
                    .isEqualTo(r.summary().ejectionsEnforced());
            for (int b = 0; b < s.size(); b++) {
                assertThat(s.membershipHealthy()[b] + s.ejectionsActive()[b])
                        .as(where)
                        .isLessThanOrEqualTo(hosts);
            }
            long ejects = Scenarios.times(r, EventAction.EJECT).size();
            assertThat(ejects).as(where).isEqualTo(r.summary().ejectionsEnforced());
        }
    }
}
