package dev.outlierlab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.fault.FailureMemo;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The fold of failures ({@link FailureFold}: outside split mode, even and random faults) against the same event-driven
 * run planning each failure one by one ({@link PassBudget}) and against the per-request path, over seeded random
 * scenarios built to make the fold stop often: consecutive thresholds (5xx and gateway failures) enforced at 0, some or
 * 100 %, statuses that are gateway failures and other 5xx, timeouts, refused connections and resets, every host
 * failing (a shared outage) or a few, hosts that fail every request, caps, panic, active health checks and rates up to
 * 3,000 rps; with one caller (thresholds 1 to 6), and with 2 to 60 callers (thresholds 1 to 10), each with its own
 * monitors, whose failures the fold puts to their callers. Every component of the {@link RunResult} must be equal,
 * field by field (arrays by content), also when the random pattern's failures are found by a {@link FailureMemo} and
 * when they are looked up there by a second run. The runs must fold many failures and stop at many; with many callers
 * some must disagree on panic while the fold goes on (their stretches are recorded request by request).
 */
class FailureFoldDifferentialTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final int SCENARIOS = 400;
    private static final int CALLER_SCENARIOS = 300;

    @Test
    void foldedRunsEqualRunsFailureByFailureAndRequestByRequest() {
        SplittableRandom rnd = new SplittableRandom(0xF01DL);
        long[] counts = compare(rnd, SCENARIOS, r -> scenario(r, 1, 6));
        assertThat(counts[0]).as("failures folded").isGreaterThan(counts[2] / 2);
        assertThat(counts[1])
                .as("folds stopped at a failure reaching the detector")
                .isGreaterThan(10_000);
        assertThat(counts[3]).isGreaterThan(SCENARIOS / 3);
        assertThat(counts[4]).isGreaterThan(SCENARIOS / 20);
    }

    @Test
    void foldedRunsOfManyCallersEqualRunsFailureByFailureAndRequestByRequest() {
        SplittableRandom rnd = new SplittableRandom(0xC0115L);
        long[] counts = compare(rnd, CALLER_SCENARIOS, r -> {
            int clients = r.nextInt(4) == 0 ? 2 + r.nextInt(4) : 2 + r.nextInt(59);
            return scenario(r, clients, 10);
        });
        assertThat(counts[0]).as("failures folded").isGreaterThan(counts[2] / 2);
        assertThat(counts[1])
                .as("folds stopped at a failure reaching the detector")
                .isGreaterThan(10_000);
        assertThat(counts[3]).isGreaterThan(CALLER_SCENARIOS / 3);
        assertThat(counts[4]).isGreaterThan(CALLER_SCENARIOS / 20);
        assertThat(counts[5])
                .as("failures folded where callers disagree on panic")
                .isGreaterThan(1_000);
    }

    /**
     * Runs {@code scenarios} scenarios of {@code draw} the four ways and compares them; returns the failures folded,
     * the folds' stops, the failures, the scenarios that eject, those in panic, and the failures folded where the
     * callers disagreed on panic.
     */
    private static long[] compare(SplittableRandom rnd, int scenarios, Function<SplittableRandom, Scenario> draw) {
        // small enough to forget its streams now and then
        FailureMemo memo = new FailureMemo(200_000);
        long[] counts = new long[6];
        for (int n = 0; n < scenarios; n++) {
            Scenario s = draw.apply(rnd);
            RunOptions options = n % 2 == 0 ? RunOptions.CHARTS : RunOptions.DEFAULT;
            assertThat(FastPath.fallbackReasons(s, options)).isEmpty();
            RunResult slow = Simulation.run(s, options.forcePerRequest());
            RunResult planned = new EventDrivenRun(s, options, false).run();
            EventDrivenRun foldedRun = new EventDrivenRun(s, options, true);
            RunResult fast;
            RunResult memoFirst;
            RunResult memoAgain;
            try {
                fast = foldedRun.run();
                memoFirst = new EventDrivenRun(s, options.sharingFailures(memo), true).run();
                memoAgain = new EventDrivenRun(s, options.sharingFailures(memo), true).run();
            } catch (RuntimeException e) {
                throw new AssertionError("scenario " + n + " failed folded: " + s, e);
            }
            assertSame("scenario " + n + " (planned one by one)", s, slow, planned);
            assertSame("scenario " + n + " (folded)", s, slow, fast);
            assertSame("scenario " + n + " (folded, failures found by a memo)", s, slow, memoFirst);
            assertSame("scenario " + n + " (folded, failures looked up in the memo)", s, slow, memoAgain);
            long[] fold = foldedRun.foldCounts();
            counts[0] += fold[0];
            counts[1] += fold[1];
            counts[2] += slow.summary().failed();
            counts[3] += slow.summary().ejectionsEnforced() > 0 ? 1 : 0;
            counts[4] += slow.summary().panicNanos() > 0 ? 1 : 0;
            counts[5] += fold[2];
        }
        System.out.printf(
                "failure fold: %d scenarios, %,d failures, %,d folded (%,d where callers disagreed on panic), %,d "
                        + "reached the detector after a fold, %d ejecting, %d in panic%n",
                scenarios, counts[2], counts[0], counts[5], counts[1], counts[3], counts[4]);
        return counts;
    }

    /** Every component of the two results equal, arrays by content; a mismatch names the component. */
    private static void assertSame(String what, Scenario s, RunResult expected, RunResult actual) {
        for (RecordComponent c : RunResult.class.getRecordComponents()) {
            Object e = value(c, expected);
            Object a = value(c, actual);
            if (!deepEquals(e, a)) {
                fail(what + ": " + c.getName() + " differs\nexpected: " + show(e) + "\nactual:   " + show(a)
                        + "\nscenario: " + s);
            }
        }
    }

    private static Object value(RecordComponent c, Object record) {
        try {
            return c.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Equality that looks into records and arrays (the series are records of arrays). */
    private static boolean deepEquals(Object e, Object a) {
        if (e == null || a == null || !e.getClass().isRecord() || e.getClass() != a.getClass()) {
            return Objects.deepEquals(e, a);
        }
        for (RecordComponent c : e.getClass().getRecordComponents()) {
            if (!deepEquals(value(c, e), value(c, a))) {
                return false;
            }
        }
        return true;
    }

    private static String show(Object o) {
        if (o instanceof long[] l) {
            return Arrays.toString(l);
        }
        if (o instanceof int[] i) {
            return Arrays.toString(i);
        }
        String text = String.valueOf(o);
        return text.length() > 2000 ? text.substring(0, 2000) + "..." : text;
    }

    /** A scenario with {@code clients} callers and consecutive thresholds of 1 to {@code thresholds}. */
    private static Scenario scenario(SplittableRandom rnd, int clients, int thresholds) {
        int hosts = 1 + rnd.nextInt(12);
        long rps = 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 3000 : 400);
        if (clients > 1 && rnd.nextBoolean()) {
            rps = 1 + rnd.nextInt(3000); // enough for each caller's runs of failures at each host
        }
        long duration = (5 + rnd.nextInt(60)) * S + rnd.nextInt(1000) * MS;
        double panic = switch (rnd.nextInt(4)) {
            case 0 -> 0;
            case 1 -> 50;
            default -> rnd.nextInt(101);
        };
        List<FaultSpec> faults = new ArrayList<>();
        int faultCount = 1 + rnd.nextInt(3);
        for (int f = 0; f < faultCount; f++) {
            List<String> names = new ArrayList<>();
            boolean everyHost = rnd.nextInt(3) == 0;
            for (int h = 0; h < hosts; h++) {
                if (everyHost || rnd.nextInt(3) == 0) {
                    names.add("host-" + h);
                }
            }
            if (names.isEmpty()) {
                names.add("host-" + rnd.nextInt(hosts));
            }
            long start = rnd.nextInt(3) == 0 ? 0 : rnd.nextLong(duration);
            long end = rnd.nextInt(3) == 0 ? duration + S : start + rnd.nextLong(duration - start + 1);
            long ppm = switch (rnd.nextInt(5)) {
                case 0 -> 1_000_000;
                case 1 -> 10_000 + rnd.nextInt(100_000);
                default -> rnd.nextInt(1_000_001);
            };
            int status = switch (rnd.nextInt(6)) {
                case 0 -> 500;
                case 1 -> 502 + rnd.nextInt(3);
                case 2 -> 500 + rnd.nextInt(100);
                default -> 503;
            };
            FaultResult result = switch (rnd.nextInt(8)) {
                case 0 -> FaultResult.TIMEOUT;
                case 1 -> FaultResult.CONNECT_FAILED;
                case 2 -> FaultResult.RESET;
                case 3 -> FaultResult.EXT_FAILED;
                default -> null;
            };
            faults.add(FaultSpec.builder()
                    .hosts(names)
                    .window(start, end)
                    .errorRatePpm(ppm)
                    .status(status)
                    .result(result)
                    .pattern(rnd.nextBoolean() ? FaultPattern.RANDOM : FaultPattern.EVEN)
                    .failsHealthCheck(rnd.nextInt(3) == 0)
                    .build());
        }
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, rnd.nextInt(3) == 0 ? 100 : rnd.nextInt(101))
                .set(OutlierSetting.INTERVAL, (200 + rnd.nextInt(12_000)) * MS)
                .set(OutlierSetting.BASE_EJECTION_TIME, (100 + rnd.nextInt(30_000)) * MS)
                .set(OutlierSetting.CONSECUTIVE_5XX, 1 + rnd.nextInt(thresholds))
                .set(OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE, 1 + rnd.nextInt(thresholds))
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, SimulationInvariantsTest.percent(rnd))
                .set(OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, SimulationInvariantsTest.percent(rnd))
                .set(OutlierSetting.ENFORCING_SUCCESS_RATE, SimulationInvariantsTest.percent(rnd))
                .set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, SimulationInvariantsTest.percent(rnd))
                .set(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS, 1 + rnd.nextInt(6))
                .set(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, 1 + rnd.nextInt(200))
                .set(OutlierSetting.SUCCESS_RATE_STDEV_FACTOR, rnd.nextInt(3001))
                .set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, rnd.nextInt(101))
                .set(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS, 1 + rnd.nextInt(6))
                .set(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, 1 + rnd.nextInt(100))
                .set(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, rnd.nextInt(10) == 0);
        HealthCheckSpec checks = rnd.nextInt(4) != 0
                ? null
                : new HealthCheckSpec((500 + rnd.nextInt(10_000)) * MS, 1 + rnd.nextInt(3), 1 + rnd.nextInt(3));
        return Scenario.builder()
                .name("fold")
                .durationNanos(duration)
                .seed(rnd.nextLong())
                .cluster(ClusterSpec.ofCount(hosts, panic))
                .traffic(new TrafficSpec(Math.max(rps, clients), clients))
                .faults(faults)
                .outlierDetection(b.build())
                .healthChecks(checks)
                .build();
    }
}
