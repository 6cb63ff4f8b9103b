package dev.outlierlab.sim.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.grpc.FailurePercentageEjection;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.grpc.SuccessRateEjection;
import dev.outlierlab.engine.grpc.XdsOutlierMapping;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.fault.FaultInjector;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import dev.outlierlab.sim.traffic.EvenSendTimes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lab's gRPC profile against grpc-java's real {@code OutlierDetectionLoadBalancer} (grpc-util 1.85.1) on a fake
 * clock: the same traffic (request {@code i} at {@code floor(i * 1e9 / rps)} to {@code ready[i mod n]}), the same
 * faults, and every ejection and return must come at the same nanosecond, to the same host, in the same order. The
 * real balancer draws enforcement from an unseeded {@code java.util.Random}, so enforcement here is 0 or 100.
 */
class GrpcDifferentialTest {

    @Test
    void theSeedsDefaultScenarioEjectsHostZeroThreeTimesAsTheRealBalancerDoes() {
        Scenario scenario = Scenario.defaults();
        GrpcOutlierConfig config = XdsOutlierMapping.of(OutlierDetectionConfig.defaults(), GrpcImplementation.JAVA)
                .config();
        RunResult lab = new GrpcProfile(config).run(scenario, RunOptions.DEFAULT);
        List<RealGrpcBalancer.Event> real = runReal(scenario, config);

        assertThat(labEvents(lab)).containsExactlyElementsOf(real);
        assertThat(real)
                .extracting(e -> e.timeNanos() / Durations.SECOND + " " + e.host() + " " + e.action())
                .containsExactly(
                        "40 host-0 eject",
                        "80 host-0 uneject",
                        "90 host-0 eject",
                        "160 host-0 uneject",
                        "170 host-0 eject",
                        "270 host-0 uneject");
        assertThat(lab.summary().failed()).isEqualTo(990);
        assertThat(lab.summary().requests()).isEqualTo(180_000);
    }

    @Test
    void aThousandSeededRandomScenariosGiveTheRealBalancersEjectionsAndReturnsToTheNanosecond() {
        SeededRandom random = new SeededRandom(21);
        int withEvents = 0;
        int withDoubleEjection = 0;
        int withCapStop = 0;
        for (int k = 0; k < 1000; k++) {
            Scenario scenario = randomScenario(random, k);
            GrpcOutlierConfig config = randomConfig(random, scenario.cluster().size());
            RunResult lab = new GrpcProfile(config).run(scenario, RunOptions.DEFAULT);
            List<RealGrpcBalancer.Event> real = runReal(scenario, config);
            assertThat(labEvents(lab))
                    .as("scenario %d: %s under %s", k, scenario, config)
                    .containsExactlyElementsOf(real);
            withEvents += real.isEmpty() ? 0 : 1;
            withDoubleEjection +=
                    lab.events().stream().anyMatch(e -> e.action() == EventAction.EJECT && e.alreadyEjected()) ? 1 : 0;
            withCapStop += lab.summary().ejectionsOverflow() > 0 ? 1 : 0;
        }
        // the loop must exercise what it claims to: ejections, the cap and the double ejection
        System.out.printf(
                "grpc differential: %d of 1000 with ejections, %d with the cap reached, %d with a double"
                        + " ejection%n",
                withEvents, withCapStop, withDoubleEjection);
        assertThat(withEvents).isGreaterThan(250);
        assertThat(withCapStop).isGreaterThan(100);
        assertThat(withDoubleEjection).isGreaterThan(20);
    }

    /** The lab's ejections and returns (offers the cap refused or enforcement skipped change nothing in gRPC). */
    private static List<RealGrpcBalancer.Event> labEvents(RunResult result) {
        List<RealGrpcBalancer.Event> out = new ArrayList<>();
        for (OutlierEvent e : result.events()) {
            if (e.action() == EventAction.EJECT || e.action() == EventAction.UNEJECT) {
                out.add(new RealGrpcBalancer.Event(
                        e.timeNanos(), e.host(), e.action().jsonName()));
            }
        }
        return out;
    }

    /** The scenario's traffic and faults through the real balancer. */
    static List<RealGrpcBalancer.Event> runReal(Scenario scenario, GrpcOutlierConfig config) {
        List<String> hosts = scenario.cluster().hosts();
        Map<String, Integer> index = new HashMap<>();
        for (int h = 0; h < hosts.size(); h++) {
            index.put(hosts.get(h), h);
        }
        RealGrpcBalancer real = new RealGrpcBalancer(hosts, config);
        FaultInjector faults = new FaultInjector(scenario.faults(), index, scenario.seed());
        EvenSendTimes times = new EvenSendTimes(scenario.traffic().rps());
        long count = scenario.requestCount();
        for (long i = 0; i < count; i++) {
            long t = times.next();
            real.forwardTo(t);
            int host = real.pick(i);
            if (host >= 0) {
                real.finish(faults.onRequest(host, t) == FaultInjector.PASS);
            }
        }
        real.forwardTo(scenario.durationNanos());
        return real.events();
    }

    private static Scenario randomScenario(SeededRandom random, int k) {
        int hosts = 2 + (int) random.nextModulo(11);
        long rps = 20 + random.nextModulo(280);
        long duration = (30 + random.nextModulo(150)) * Durations.SECOND;
        List<String> names = ClusterSpec.ofCount(hosts, 0).hosts();
        List<FaultSpec> faults = new ArrayList<>();
        int faultCount = 1 + (int) random.nextModulo(3);
        for (int f = 0; f < faultCount; f++) {
            int first = (int) random.nextModulo(hosts);
            int many = 1 + (int) random.nextModulo(Math.min(3, hosts - first));
            long start = random.nextModulo(duration / Durations.SECOND) * Durations.SECOND;
            long end = start + (1 + random.nextModulo(120)) * Durations.SECOND;
            long ppm = switch ((int) random.nextModulo(4)) {
                case 0 -> 1_000_000;
                case 1 -> random.nextModulo(1_000_001);
                default -> random.nextModulo(600_001);
            };
            FaultResult result = random.nextModulo(4) == 0 ? FaultResult.TIMEOUT : null;
            FaultPattern pattern = random.nextModulo(2) == 0 ? FaultPattern.EVEN : FaultPattern.RANDOM;
            faults.add(FaultSpec.builder()
                    .hosts(names.subList(first, first + many))
                    .window(start, end)
                    .errorRatePpm(ppm)
                    .status(500 + (int) random.nextModulo(5))
                    .result(result)
                    .pattern(pattern)
                    .build());
        }
        return Scenario.builder()
                .name("differential-" + k)
                .durationNanos(duration)
                .seed(1 + random.nextModulo(1000))
                .cluster(new ClusterSpec(names, 0))
                .traffic(new TrafficSpec(rps))
                .faults(faults)
                .build();
    }

    private static GrpcOutlierConfig randomConfig(SeededRandom random, int hosts) {
        long interval = (1 + random.nextModulo(15)) * Durations.SECOND
                + (random.nextModulo(3) == 0 ? random.nextModulo(Durations.SECOND) : 0);
        long base =
                random.nextModulo(41) * Durations.SECOND + (random.nextModulo(4) == 0 ? random.nextModulo(999_999) : 0);
        long max = random.nextModulo(121) * Durations.SECOND;
        int maxPercent = switch ((int) random.nextModulo(5)) {
            case 0 -> 0;
            case 1 -> 100;
            default -> (int) random.nextModulo(101);
        };
        SuccessRateEjection sr = random.nextModulo(3) == 0
                ? null
                : new SuccessRateEjection(
                        (int) random.nextModulo(3001),
                        random.nextModulo(6) == 0 ? 0 : 100,
                        (int) random.nextModulo(hosts + 2),
                        (int) random.nextModulo(201));
        FailurePercentageEjection fp = random.nextModulo(3) == 0
                ? null
                : new FailurePercentageEjection(
                        (int) random.nextModulo(101),
                        random.nextModulo(6) == 0 ? 0 : 100,
                        (int) random.nextModulo(hosts + 2),
                        (int) random.nextModulo(101));
        return new GrpcOutlierConfig(interval, base, max, maxPercent, sr, fp, GrpcImplementation.JAVA);
    }
}
