package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EjectionType;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.RequestResult;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A property test without a framework: a few hundred scenarios drawn from a seeded SplittableRandom, each run
 * once and checked against invariants that hold for every scenario. A failure names the scenario's number and
 * prints it, so it can be replayed.
 */
class SimulationInvariantsTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final int SCENARIOS = 300;

    @Test
    void invariantsHoldOverRandomScenarios() {
        SplittableRandom rnd = new SplittableRandom(0x5EED_2026_1103L);
        Map<String, Integer> reached = new HashMap<>();
        for (int n = 0; n < SCENARIOS; n++) {
            Scenario s = randomScenario(rnd);
            RunResult r = Simulation.run(s);
            tally(s, r, reached);
            try {
                check(s, r);
                if (n % 25 == 0) {
                    RunResult again = Simulation.run(s);
                    assertThat(again.events()).isEqualTo(r.events());
                    assertThat(again.summary()).isEqualTo(r.summary());
                    assertThat(again.stats()).isEqualTo(r.stats());
                }
            } catch (AssertionError e) {
                throw new AssertionError("scenario #" + n + ": " + s + "\n" + e.getMessage(), e);
            }
        }
        // the draw must actually reach the interesting paths, or the invariants above prove little
        Map<String, Integer> atLeast = Map.of(
                "eject",
                20,
                "overflow",
                20,
                "unenforced",
                20,
                "return by time",
                10,
                "return by health check",
                5,
                "panic",
                5,
                "no healthy upstream",
                5,
                "one host beyond the cap",
                5,
                "several hosts out",
                10);
        atLeast.forEach((path, min) -> assertThat(reached.getOrDefault(path, 0))
                .as("scenarios reaching '%s' (all: %s)", path, reached)
                .isGreaterThanOrEqualTo(min));
    }

    private static void tally(Scenario s, RunResult r, Map<String, Integer> reached) {
        RunSummary sum = r.summary();
        Set<String> paths = new HashSet<>();
        if (sum.ejectionsEnforced() > 0) {
            paths.add("eject");
        }
        if (sum.ejectionsOverflow() > 0) {
            paths.add("overflow");
        }
        if (sum.ejectionsUnenforced() > 0) {
            paths.add("unenforced");
        }
        for (OutlierEvent e : r.events()) {
            if (e.uneject() == UnejectReason.EJECTION_TIME_ELAPSED) {
                paths.add("return by time");
            } else if (e.uneject() == UnejectReason.ACTIVE_HEALTH_CHECK) {
                paths.add("return by health check");
            }
        }
        if (sum.panicNanos() > 0) {
            paths.add("panic");
        }
        if (sum.noHealthyUpstream() > 0) {
            paths.add("no healthy upstream");
        }
        long cap = Math.min(s.outlierDetection().maxEjectionPercent(), 100);
        if (sum.maxEjectedAtOnce() == 1 && 100L > cap * s.cluster().size()) {
            paths.add("one host beyond the cap");
        }
        if (sum.maxEjectedAtOnce() >= 2) {
            paths.add("several hosts out");
        }
        for (String p : paths) {
            reached.merge(p, 1, Integer::sum);
        }
    }

    private static void check(Scenario s, RunResult r) {
        int hosts = s.cluster().size();
        OutlierDetectionConfig c = s.outlierDetection();
        long cap = Math.min(c.maxEjectionPercent(), 100);
        boolean alwaysOne = c.alwaysEjectOneHost();

        // Envoy's gauge: one more per ejection, one less per return. A host success rate ejected at a tick can be
        // offered again by failure percentage in the same tick (lab-model 6.4, fidelity case R2): that second
        // offer is the only offer of an ejected host, and if enforced it counts twice in the gauge.
        Map<String, OutlierEvent> ejected = new HashMap<>();
        int active = 0;
        Map<EventAction, Integer> count = new HashMap<>();
        int mostAtOnce = 0;
        long previous = 0;
        for (OutlierEvent e : r.events()) {
            count.merge(e.action(), 1, Integer::sum);
            assertThat(e.timeNanos()).as("event times never go back").isGreaterThanOrEqualTo(previous);
            assertThat(e.timeNanos()).as("events lie within the run").isBetween(0L, s.durationNanos());
            previous = e.timeNanos();
            if (e.action() != EventAction.UNEJECT && ejected.containsKey(e.host())) {
                OutlierEvent first = ejected.get(e.host());
                assertThat(isSameTickSecondOffer(first, e))
                        .as(
                                "%s offered while out, other than by failure percentage in the tick success rate ejected"
                                        + " it: %s after %s",
                                e.host(), e, first)
                        .isTrue();
            }
            switch (e.action()) {
                case EJECT -> {
                    ejected.putIfAbsent(e.host(), e);
                    active++;
                    // never more than the cap, unless always_eject_one_host lets a single host go
                    boolean withinCap = 100L * active <= cap * hosts;
                    assertThat(withinCap || (alwaysOne && active == 1))
                            .as(
                                    "%d of %d hosts out at cap %d%%, always_eject_one_host %s",
                                    active, hosts, cap, alwaysOne)
                            .isTrue();
                    mostAtOnce = Math.max(mostAtOnce, ejected.size());
                    assertThat(e.type()).isNotNull();
                    assertThat(e.ejection()).isNotNull();
                }
                case UNEJECT -> {
                    assertThat(ejected.remove(e.host()))
                            .as("%s returned without being ejected", e.host())
                            .isNotNull();
                    active--;
                    assertThat(e.type()).isNull();
                    assertThat(e.uneject()).isNotNull();
                }
                case OVERFLOW -> {
                    // an overflow means the cap really was full
                    assertThat(100L * (active + 1) <= cap * hosts || (alwaysOne && active == 0))
                            .as("overflow with %d of %d out at cap %d%%", active, hosts, cap)
                            .isFalse();
                }
                case UNENFORCED -> assertThat(e.enforcement().enforced()).isFalse();
            }
        }
        int ejects = count.getOrDefault(EventAction.EJECT, 0);
        int returns = count.getOrDefault(EventAction.UNEJECT, 0);
        int overflows = count.getOrDefault(EventAction.OVERFLOW, 0);
        int unenforced = count.getOrDefault(EventAction.UNENFORCED, 0);

        Map<String, Long> stats = r.stats();
        RunSummary sum = r.summary();
        assertThat(stats.get("ejections_active"))
                .as("ejections_active = Envoy's gauge at the end")
                .isEqualTo(active);
        assertThat(sum.ejectionsDetected())
                .as("detected = eject + overflow + unenforced")
                .isEqualTo(ejects + overflows + unenforced);
        assertThat(sum.ejectionsEnforced()).isEqualTo(ejects);
        assertThat(sum.ejectionsOverflow()).isEqualTo(overflows);
        assertThat(sum.ejectionsUnenforced()).isEqualTo(unenforced);
        assertThat(sum.returns()).isEqualTo(returns);
        assertThat(sum.maxEjectedAtOnce()).isEqualTo(mostAtOnce);
        assertThat(stats.get("ejections_enforced_total")).isEqualTo(ejects);
        assertThat(stats.get("ejections_overflow")).isEqualTo(overflows);
        long detectedByType = 0;
        long enforcedByType = 0;
        for (EjectionType t : EjectionType.values()) {
            detectedByType += stats.get("ejections_detected_" + t.statSuffix());
            enforcedByType += stats.get("ejections_enforced_" + t.statSuffix());
        }
        assertThat(detectedByType).isEqualTo(sum.ejectionsDetected());
        assertThat(enforcedByType).isEqualTo(ejects);

        assertThat(sum.requests()).isEqualTo(s.requestCount());
        assertThat(sum.failed()).isBetween(0L, sum.requests());
        assertThat(sum.failedDuringFault()).isBetween(0L, sum.requestsDuringFault());
        assertThat(sum.noHealthyUpstream()).isBetween(0L, sum.failed());
        assertThat(sum.panicNanos()).isBetween(0L, s.durationNanos());
        if (s.cluster().panicThresholdPercent() > 0) {
            // with panic on, an empty rotation is panic and every host is eligible
            assertThat(sum.noHealthyUpstream()).isZero();
        } else {
            assertThat(sum.panicNanos()).isZero();
        }
        if (s.faults().isEmpty()) {
            assertThat(sum.requestsDuringFault()).isZero();
            assertThat(sum.failed())
                    .as("without faults only a missing host fails a request")
                    .isEqualTo(sum.noHealthyUpstream());
        }
        long seriesRequests = 0;
        for (long v : r.series().requests()) {
            seriesRequests += v;
        }
        assertThat(seriesRequests).isEqualTo(sum.requests());
    }

    static Scenario randomScenario(SplittableRandom rnd) {
        int hosts = 1 + rnd.nextInt(15);
        // one scenario in eight is a blackout: panic off, every host failing requests and checks, cap 100
        boolean blackout = rnd.nextInt(8) == 0;
        double panic = blackout
                ? 0
                : switch (rnd.nextInt(5)) {
                    case 0, 1 -> 0;
                    case 2 -> 50;
                    default -> rnd.nextInt(101);
                };
        long rps = 1 + rnd.nextInt(300);
        long duration = (5 + rnd.nextInt(90)) * S + rnd.nextInt(1000) * MS;

        List<FaultSpec> faults = new ArrayList<>();
        if (blackout) {
            long start = rnd.nextLong(duration / 2);
            faults.add(FaultSpec.builder()
                    .hosts(ClusterSpec.ofCount(hosts, 0).hosts())
                    .window(start, duration)
                    .errorRatePpm(1_000_000)
                    .failsHealthCheck(true)
                    .build());
        }
        int faultCount = rnd.nextInt(4);
        for (int f = 0; f < faultCount; f++) {
            List<String> names = new ArrayList<>();
            boolean everyHost = rnd.nextInt(4) == 0; // a shared dependency down: every host fails
            for (int h = 0; h < hosts; h++) {
                if (everyHost || rnd.nextInt(3) == 0) {
                    names.add("host-" + h);
                }
            }
            if (names.isEmpty()) {
                names.add("host-" + rnd.nextInt(hosts));
            }
            long start = rnd.nextLong(duration);
            long end = start + rnd.nextLong(duration - start + 1);
            long ppm = switch (rnd.nextInt(4)) {
                case 0 -> 1_000_000;
                case 1 -> 0;
                default -> rnd.nextInt(1_000_001);
            };
            int status = 500 + rnd.nextInt(100);
            RequestResult result = switch (rnd.nextInt(6)) {
                case 0 -> RequestResult.LOCAL_ORIGIN_TIMEOUT;
                case 1 -> RequestResult.LOCAL_ORIGIN_CONNECT_FAILED;
                default -> null;
            };
            faults.add(FaultSpec.builder()
                    .hosts(names)
                    .window(start, end)
                    .errorRatePpm(ppm)
                    .status(status)
                    .result(result)
                    .failsHealthCheck(rnd.nextInt(3) == 0)
                    .build());
        }

        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, blackout || rnd.nextInt(4) == 0 ? 100 : rnd.nextInt(101))
                .set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, rnd.nextBoolean())
                .set(OutlierSetting.INTERVAL, (200 + rnd.nextInt(15_000)) * MS)
                .set(OutlierSetting.BASE_EJECTION_TIME, (100 + rnd.nextInt(40_000)) * MS)
                .set(OutlierSetting.MAX_EJECTION_TIME_JITTER, rnd.nextInt(4) == 0 ? rnd.nextInt(5000) * MS : 0)
                .set(OutlierSetting.CONSECUTIVE_5XX, 1 + rnd.nextInt(10))
                .set(OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE, 1 + rnd.nextInt(10))
                .set(OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE, 1 + rnd.nextInt(10))
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, percent(rnd))
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, percent(rnd))
                .set(OutlierSetting.ENFORCING_SUCCESS_RATE, percent(rnd))
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, percent(rnd))
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE, percent(rnd))
                .set(OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE, percent(rnd))
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN, percent(rnd))
                .set(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, rnd.nextInt(4) == 0)
                .set(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS, 1 + rnd.nextInt(6))
                .set(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, 1 + rnd.nextInt(200))
                .set(OutlierSetting.SUCCESS_RATE_STDEV_FACTOR, rnd.nextInt(3001))
                .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, rnd.nextInt(101))
                .set(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS, 1 + rnd.nextInt(6))
                .set(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, 1 + rnd.nextInt(100))
                .set(OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST, rnd.nextBoolean());
        if (rnd.nextBoolean()) {
            b.set(OutlierSetting.MAX_EJECTION_TIME, (100 + rnd.nextInt(40_000)) * MS + 40 * S);
        }
        HealthCheckSpec checks = rnd.nextBoolean()
                ? null
                : new HealthCheckSpec((500 + rnd.nextInt(10_000)) * MS, 1 + rnd.nextInt(3), 1 + rnd.nextInt(3));
        return Scenario.builder()
                .name("random")
                .durationNanos(duration)
                .seed(rnd.nextLong())
                .cluster(ClusterSpec.ofCount(hosts, panic))
                .traffic(new TrafficSpec(rps))
                .faults(faults)
                .outlierDetection(b.build())
                .healthChecks(checks)
                .build();
    }

    /** An enforcement percentage drawn from {@code rnd}: 0, 100 or anything between, a third of the time each. */
    static long percent(SplittableRandom rnd) {
        return switch (rnd.nextInt(3)) {
            case 0 -> 0;
            case 1 -> 100;
            default -> rnd.nextInt(101);
        };
    }

    private static boolean isSameTickSecondOffer(OutlierEvent first, OutlierEvent offer) {
        return first.type() != null
                && offer.type() != null
                && first.timeNanos() == offer.timeNanos()
                && first.type() == EjectionType.successRate(first.type().origin())
                && offer.type() == EjectionType.failurePercentage(first.type().origin());
    }
}
