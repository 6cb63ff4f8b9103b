package dev.outlierlab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.outlierlab.config.scenario.ScenarioWriter;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.UnejectReason;
import dev.outlierlab.sim.FastPath;
import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckFailure;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The event-driven {@link FastPath} against the per-request path over 1,000 seeded random scenarios: 1 to 40 hosts,
 * 1 to 8 callers (1 to 64 in one in 25), rates and short durations, up to four faults (even, random and burst patterns; statuses,
 * timeouts, connect failures, resets, external failures; some on every host, some starting at 0 or outlasting the
 * run), every Envoy detector on and off, caps, {@code always_eject_one_host}, panic thresholds, split mode, ejection
 * times with jitter and several Envoy releases. For each, the full JSON report (with series, panic windows,
 * intervals and signals) must be byte-identical, and so must the parts of the {@link RunResult} the JSON leaves out
 * (per-host counts, event counts). The fast path is called directly, so the test cannot pass by falling back. A
 * mismatch prints the scenario as YAML.
 */
class FastPathDifferentialTest {
    /**
     * Runs {@code scenario} on both paths (the fast path must take it) and fails unless their reports are the same;
     * the per-request path's result.
     */
    private static RunResult runBoth(String what, Scenario scenario, RunOptions options) {
        assertThat(FastPath.fallbackReasons(scenario, options)).isEmpty();
        RunResult slow = Simulation.run(scenario, options.forcePerRequest());
        RunResult fast;
        try {
            fast = FastPath.run(scenario, options);
        } catch (RuntimeException e) {
            throw new AssertionError(what + " failed on the fast path:\n" + yaml(scenario), e);
        }
        assertSameReport(what, scenario, options.keepIntervals(), slow, fast);
        return slow;
    }

    /** Fails, with the scenario and the first difference, unless both paths' reports are byte-identical. */
    private static void assertSameReport(
            String what, Scenario scenario, boolean charts, RunResult slow, RunResult fast) {
        String expected = ResultJson.toJson(slow, charts, true);
        String actual = ResultJson.toJson(fast, charts, true);
        if (!expected.equals(actual) || !rest(slow).equals(rest(fast))) {
            fail(what + ": the fast path differs from the per-request path\n" + yaml(scenario)
                    + "\nfirst difference near: " + firstDifference(expected, actual)
                    + "\nper-request rest: " + rest(slow) + "\nfast rest:        " + rest(fast));
        }
    }

    private static final int SCENARIOS = 1000;
    private static final String[] VERSIONS = {"1.26", "1.28", "1.30", "1.31", "1.38", "1.39", "1.40"};

    @Test
    void fastPathGivesByteIdenticalReports() {
        SplittableRandom random = new SplittableRandom(0xFA57L);
        int ejecting = 0;
        int panicking = 0;
        int noHost = 0;
        int severalCallers = 0;
        int withFaults = 0;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long perRequestNanos = 0;
        long fastNanos = 0;
        long requests = 0;
        long start = cpu.getCurrentThreadCpuTime();
        for (int n = 0; n < SCENARIOS; n++) {
            Scenario scenario = scenario(random, n);
            RunOptions options = n % 3 == 0 ? RunOptions.DEFAULT.keepingEvents(random.nextInt(20)) : RunOptions.CHARTS;
            assertThat(FastPath.fallbackReasons(scenario, options)).isEmpty();
            RunResult fast;
            long before = cpu.getCurrentThreadCpuTime();
            RunResult slow = Simulation.run(scenario, options.forcePerRequest());
            long between = cpu.getCurrentThreadCpuTime();
            try {
                fast = FastPath.run(scenario, options);
            } catch (RuntimeException e) {
                throw new AssertionError("scenario " + n + " failed on the fast path:\n" + yaml(scenario), e);
            }
            long after = cpu.getCurrentThreadCpuTime();
            perRequestNanos += between - before;
            fastNanos += after - between;
            requests += slow.summary().requests();
            assertSameReport("scenario " + n, scenario, options.keepIntervals(), slow, fast);
            ejecting += slow.summary().ejectionsEnforced() > 0 ? 1 : 0;
            panicking += slow.summary().panicNanos() > 0 ? 1 : 0;
            noHost += slow.summary().noHealthyUpstream() > 0 ? 1 : 0;
            severalCallers += scenario.traffic().clients() > 1 ? 1 : 0;
            withFaults += scenario.faults().isEmpty() ? 0 : 1;
        }
        System.out.printf(
                Locale.ROOT,
                "fast-path differential: %d scenarios, %,d requests, %d ejecting, %d in "
                        + "panic, %d out of hosts; CPU ms: per-request %d, fast %d, whole test %d%n",
                SCENARIOS,
                requests,
                ejecting,
                panicking,
                noHost,
                perRequestNanos / 1_000_000,
                fastNanos / 1_000_000,
                (cpu.getCurrentThreadCpuTime() - start) / 1_000_000);
        // the scenarios reach every kind of behaviour, not only quiet runs
        assertThat(ejecting).isGreaterThan(SCENARIOS / 3);
        assertThat(panicking).isGreaterThan(SCENARIOS / 20);
        assertThat(noHost).isGreaterThan(10);
        assertThat(severalCallers).isGreaterThan(SCENARIOS / 2);
        assertThat(withFaults).isGreaterThan(SCENARIOS * 3 / 4);
    }

    /**
     * Per-host capacity: the event-driven path runs while no host can reach its capacity and gives up otherwise (the
     * run is then made request by request); where it runs, its report is the per-request path's, byte for byte.
     */
    @Test
    void capacityRunsMatchWhereTheFastPathRuns() {
        SplittableRandom random = new SplittableRandom(0xCA9AL);
        int completed = 0;
        int givenUp = 0;
        for (int n = 0; n < 300; n++) {
            Scenario plain = scenario(random, n);
            long share = Math.max(1, plain.traffic().rps() / plain.cluster().size());
            long capacity = Math.max(1, share * (100 + random.nextInt(80)) / 100);
            Map<String, Long> caps = new HashMap<>();
            for (String h : plain.cluster().hosts()) {
                caps.put(h, capacity);
            }
            Scenario scenario = plain.toBuilder()
                    .load(new LoadSpec(caps, 503, null, Map.of(), Arrivals.EVEN, List.of()))
                    .build();
            RunResult fast = FastPath.runOrNull(scenario, RunOptions.CHARTS);
            if (fast == null) {
                givenUp++;
                continue;
            }
            completed++;
            RunResult slow = Simulation.run(scenario, RunOptions.CHARTS.forcePerRequest());
            assertThat(slow.summary().requests()).isEqualTo(fast.summary().requests());
            assertSameReport("capacity scenario " + n, scenario, true, slow, fast);
        }
        System.out.printf("capacity differential: %d run on the fast path, %d given up%n", completed, givenUp);
        assertThat(completed).isGreaterThan(50);
        assertThat(givenUp).isGreaterThan(20);
    }

    /**
     * Active health checks (probes every 100 ms to 10 s, thresholds 1 to 3, no-traffic intervals shorter and longer than
     * the run, timeouts) with faults that fail their probes by status, refused connection or timeout, and shared
     * outages (a fault on every host, as tune's suite has): the probes are periodic events between which only
     * failures matter, so the event-driven path runs them, and its report is the per-request path's, byte for byte.
     */
    @Test
    void healthCheckedRunsAndSharedOutagesMatch() {
        SplittableRandom random = new SplittableRandom(0x4EA17L);
        int scenarios = 300;
        int checksFailed = 0;
        int unejectedByCheck = 0;
        int shared = 0;
        int ejecting = 0;
        for (int n = 0; n < scenarios; n++) {
            Scenario plain = scenario(random, n);
            List<FaultSpec> faults = new ArrayList<>();
            HealthCheckFailure[] kinds = {
                null, HealthCheckFailure.STATUS, HealthCheckFailure.REFUSED, HealthCheckFailure.TIMEOUT
            };
            for (FaultSpec f : plain.faults()) {
                faults.add(f.toBuilder()
                        .healthCheckFailure(kinds[random.nextInt(kinds.length)])
                        .build());
            }
            boolean outage = n % 3 == 0;
            if (outage) {
                // every host failing a share of its requests, from some point on: a shared outage
                faults.add(FaultSpec.builder()
                        .hosts(plain.cluster().hosts())
                        .window(random.nextLong(plain.durationNanos() / 2 + 1), plain.durationNanos())
                        .errorRatePpm(50_000 + random.nextInt(400_000))
                        .status(503)
                        .pattern(FaultPattern.RANDOM)
                        .build());
            }
            Scenario scenario = plain.toBuilder()
                    .faults(faults)
                    .healthChecks(healthCheck(random))
                    .build();
            if (random.nextInt(3) == 0) {
                try {
                    scenario = scenario.toBuilder()
                            .outlierDetection(plain.outlierDetection().toBuilder()
                                    .set(OutlierSetting.SUCCESSFUL_ACTIVE_HEALTH_CHECK_UNEJECT_HOST, false)
                                    .build())
                            .build();
                } catch (InvalidConfigException e) {
                    // a release without the field: probes return ejected hosts
                }
            }
            RunOptions options = n % 2 == 0 ? RunOptions.DEFAULT.keepingEvents(random.nextInt(20)) : RunOptions.CHARTS;
            RunResult slow = runBoth("health-checked scenario " + n, scenario, options);
            checksFailed +=
                    faults.stream().anyMatch(f -> f.failsHealthCheck() && f.startNanos() < plain.durationNanos())
                            ? 1
                            : 0;
            unejectedByCheck += slow.events().stream()
                            .anyMatch(e -> e.action() == EventAction.UNEJECT
                                    && (e.uneject() == UnejectReason.ACTIVE_HEALTH_CHECK
                                            || e.uneject() == UnejectReason.FAILING_ACTIVE_HEALTH_CHECK))
                    ? 1
                    : 0;
            shared += outage ? 1 : 0;
            ejecting += slow.summary().ejectionsEnforced() > 0 ? 1 : 0;
        }
        System.out.printf(
                "health-check differential: %d scenarios, %d with failed probes, %d with a host returned by a probe, "
                        + "%d shared outages, %d ejecting%n",
                scenarios, checksFailed, unejectedByCheck, shared, ejecting);
        assertThat(checksFailed).isGreaterThan(scenarios / 5);
        assertThat(unejectedByCheck).isGreaterThan(scenarios / 10);
        assertThat(ejecting).isGreaterThan(scenarios / 4);
    }

    /**
     * Many callers (10 to 64, as {@code tune --clients 50}) each with a detector of its own, on a pool where every
     * host has some noise all the time (random failures, 0.1 % to 5 %), some with one host failing much more and
     * some with active health checks: the callers' lists then differ in size as each ejects its own hosts, so the
     * hosts' requests merged over callers of several list sizes are found by arithmetic; the report must be the
     * per-request path's, byte for byte.
     */
    @Test
    void manyCallersOnANoisyPoolMatch() {
        SplittableRandom random = new SplittableRandom(0x50CA11L);
        int scenarios = 150;
        int ejecting = 0;
        int unevenLists = 0;
        for (int n = 0; n < scenarios; n++) {
            Scenario plain = scenario(random, n);
            int hosts = 2 + random.nextInt(30);
            long rps = 500 + random.nextInt(4000);
            long seconds = Math.max(3, 100_000 / rps);
            int clients = 10 + random.nextInt(55);
            List<FaultSpec> faults = new ArrayList<>();
            for (int h = 0; h < hosts; h++) {
                faults.add(FaultSpec.builder()
                        .hosts(List.of("host-" + h))
                        .window(0, seconds * Durations.SECOND)
                        .errorRatePpm(1_000 + random.nextInt(50_000))
                        .status(503)
                        .pattern(FaultPattern.RANDOM)
                        .build());
            }
            if (random.nextBoolean()) {
                faults.add(
                        0,
                        FaultSpec.builder()
                                .hosts(List.of("host-" + random.nextInt(hosts)))
                                .window(random.nextLong(seconds * Durations.SECOND / 2), seconds * Durations.SECOND)
                                .errorRatePpm(100_000 + random.nextInt(900_001))
                                .status(503)
                                .result(random.nextBoolean() ? null : FaultResult.CONNECT_FAILED)
                                .pattern(random.nextBoolean() ? FaultPattern.RANDOM : FaultPattern.EVEN)
                                .build());
            }
            Scenario scenario = plain.toBuilder()
                    .cluster(ClusterSpec.ofCount(hosts, plain.cluster().panicThresholdPercent()))
                    .durationNanos(seconds * Durations.SECOND)
                    .traffic(new TrafficSpec(rps, clients))
                    .faults(faults)
                    .healthChecks(random.nextInt(3) == 0 ? healthCheck(random) : null)
                    .build();
            RunOptions options = n % 2 == 0 ? RunOptions.DEFAULT.keepingEvents(random.nextInt(20)) : RunOptions.CHARTS;
            RunResult slow = runBoth("many-caller scenario " + n, scenario, options);
            long ejections = slow.summary().ejectionsEnforced();
            ejecting += ejections > 0 ? 1 : 0;
            // two callers or more ejecting: their lists differ in size while one has ejected and another not
            Set<Integer> ejectingCallers = new HashSet<>();
            for (int e = 0; e < slow.events().size(); e++) {
                if (slow.events().get(e).action() == EventAction.EJECT) {
                    ejectingCallers.add(slow.clientOf(e));
                }
            }
            unevenLists += ejectingCallers.size() > 1 ? 1 : 0;
        }
        System.out.printf(
                "many-caller differential: %d scenarios, %d ejecting, %d with several callers ejecting%n",
                scenarios, ejecting, unevenLists);
        assertThat(ejecting).isGreaterThan(scenarios / 3);
        assertThat(unevenLists).isGreaterThan(scenarios / 6);
    }

    /** An active health check with Envoy's intervals drawn around the run's time scale. */
    private static HealthCheckSpec healthCheck(SplittableRandom r) {
        long[] intervals = {100, 500, 1000, 3000, 10_000};
        long interval = intervals[r.nextInt(intervals.length)] * Durations.MILLISECOND;
        long noTraffic = r.nextBoolean() ? interval : 60 * Durations.SECOND;
        long timeout = (50 + r.nextInt(2000)) * Durations.MILLISECOND;
        return new HealthCheckSpec(
                interval,
                1 + r.nextInt(3),
                1 + r.nextInt(3),
                timeout,
                noTraffic,
                r.nextBoolean() ? noTraffic : interval * 2,
                r.nextBoolean() ? interval : interval * 2,
                r.nextBoolean() ? interval : interval / 2 + 1,
                r.nextBoolean() ? interval : interval / 2 + 1);
    }

    private static Scenario scenario(SplittableRandom r, int n) {
        while (true) {
            try {
                return tryScenario(r, n);
            } catch (InvalidConfigException e) {
                // a combination the release does not have (always_eject_one_host before 1.31): draw again
            }
        }
    }

    private static Scenario tryScenario(SplittableRandom r, int n) {
        // one in ten: a small cluster without panic whose every host may go, so that callers run out of hosts
        boolean exhaust = n % 10 == 9;
        int hosts = 1 + r.nextInt(exhaust ? 3 : r.nextInt(4) == 0 ? 40 : 12);
        double[] thresholds = {0, 0, 50, 50, 30, 80, 100, r.nextInt(10_001) / 100.0};
        ClusterSpec cluster = ClusterSpec.ofCount(hosts, exhaust ? 0 : thresholds[r.nextInt(thresholds.length)]);
        long rps = 1 + r.nextInt(r.nextBoolean() ? 200 : 3000);
        long seconds = 5 + r.nextInt(r.nextBoolean() ? 40 : 150);
        while (rps * seconds > 100_000) {
            seconds = Math.max(2, seconds / 2);
            rps = Math.max(1, rps * 2 / 3);
        }
        // one in 25: many callers (up to 64, as tune --clients 50), whose stretches are often shorter than a round
        int most = n % 25 == 12 ? 64 : 8;
        int clients = (int) Math.min(rps, r.nextInt(3) == 0 && most == 8 ? 1 : 1 + r.nextInt(most));
        long duration = seconds * Durations.SECOND + (r.nextBoolean() ? 0 : r.nextLong(Durations.SECOND));
        List<FaultSpec> faults = new ArrayList<>();
        int faultCount = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(4);
        for (int f = 0; f < faultCount; f++) {
            faults.add(fault(r, hosts, duration, n % 2 == 1));
        }
        EnvoyVersion version = EnvoyVersion.parse(VERSIONS[r.nextInt(VERSIONS.length)]);
        OutlierDetectionConfig detection = detection(r, version);
        if (exhaust) {
            detection = detection.toBuilder()
                    .set(OutlierSetting.MAX_EJECTION_PERCENT, 100)
                    .set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, 100)
                    .build();
        }
        return Scenario.builder()
                .name("differential-" + n)
                .durationNanos(duration)
                .seed(r.nextLong())
                .cluster(cluster)
                .traffic(new TrafficSpec(rps, clients))
                .faults(faults)
                .outlierDetection(detection)
                .envoyVersion(version)
                .build();
    }

    /**
     * @param indexedOnly no burst pattern (a random one instead), so that every faulty host's failures are planned
     *                    rather than walked (the even and random patterns are functions of the request's number)
     */
    private static FaultSpec fault(SplittableRandom r, int hosts, long duration, boolean indexedOnly) {
        List<String> names = new ArrayList<>();
        int count = r.nextInt(6) == 0 ? hosts : 1 + r.nextInt(Math.min(hosts, 3));
        int first = r.nextInt(hosts);
        for (int k = 0; k < count; k++) {
            names.add("host-" + (first + k) % hosts);
        }
        long start = r.nextInt(4) == 0 ? 0 : r.nextLong(duration);
        long end = r.nextInt(5) == 0 ? duration + Durations.SECOND : start + r.nextLong(duration - start + 1);
        long[] rates = {0, 1_000_000, 500_000, 50_000, 330_000, 950_000, r.nextLong(1_000_001)};
        long ppm = rates[r.nextInt(rates.length)];
        int[] statuses = {500, 502, 503, 504, 599};
        FaultResult[] results = {
            null, null, FaultResult.TIMEOUT, FaultResult.CONNECT_FAILED, FaultResult.RESET, FaultResult.EXT_FAILED
        };
        FaultPattern pattern = FaultPattern.values()[r.nextInt(FaultPattern.values().length)];
        if (indexedOnly && pattern == FaultPattern.BURSTS) {
            pattern = FaultPattern.RANDOM;
        }
        long burst = Math.max(FaultSpec.shortestBurstLengthMilli(ppm), 1000 + r.nextInt(9000));
        return FaultSpec.builder()
                .hosts(names)
                .window(start, end)
                .errorRatePpm(ppm)
                .status(statuses[r.nextInt(statuses.length)])
                .result(results[r.nextInt(results.length)])
                .pattern(pattern)
                .burstLengthMilli(burst)
                .build();
    }

    private static OutlierDetectionConfig detection(SplittableRandom r, EnvoyVersion version) {
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        long second = Durations.SECOND;
        b.set(OutlierSetting.INTERVAL, (1 + r.nextInt(10)) * second);
        b.set(OutlierSetting.BASE_EJECTION_TIME, (1 + r.nextInt(30)) * second);
        if (r.nextInt(3) == 0) {
            b.set(OutlierSetting.MAX_EJECTION_TIME, (30 + r.nextInt(300)) * second);
        }
        if (r.nextInt(3) == 0) {
            b.set(OutlierSetting.MAX_EJECTION_TIME_JITTER, r.nextInt(5000) * Durations.MILLISECOND);
        }
        long[] caps = {0, 10, 20, 34, 50, 100, r.nextInt(101)};
        b.set(OutlierSetting.MAX_EJECTION_PERCENT, caps[r.nextInt(caps.length)]);
        b.set(OutlierSetting.CONSECUTIVE_5XX, 1 + r.nextInt(10));
        b.set(OutlierSetting.ENFORCING_CONSECUTIVE_5XX, onOff(r));
        b.set(OutlierSetting.CONSECUTIVE_GATEWAY_FAILURE, 1 + r.nextInt(10));
        b.set(OutlierSetting.ENFORCING_CONSECUTIVE_GATEWAY_FAILURE, onOff(r));
        b.set(OutlierSetting.ENFORCING_SUCCESS_RATE, onOff(r));
        b.set(OutlierSetting.SUCCESS_RATE_MINIMUM_HOSTS, r.nextInt(8));
        b.set(OutlierSetting.SUCCESS_RATE_REQUEST_VOLUME, r.nextInt(4) == 0 ? 1 : r.nextInt(300));
        b.set(OutlierSetting.SUCCESS_RATE_STDEV_FACTOR, 300 + r.nextInt(2500));
        b.set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE, onOff(r));
        b.set(OutlierSetting.FAILURE_PERCENTAGE_THRESHOLD, r.nextInt(101));
        b.set(OutlierSetting.FAILURE_PERCENTAGE_MINIMUM_HOSTS, r.nextInt(8));
        b.set(OutlierSetting.FAILURE_PERCENTAGE_REQUEST_VOLUME, r.nextInt(4) == 0 ? 1 : r.nextInt(300));
        boolean split = r.nextInt(3) == 0;
        b.set(OutlierSetting.SPLIT_EXTERNAL_LOCAL_ORIGIN_ERRORS, split);
        if (split) {
            b.set(OutlierSetting.CONSECUTIVE_LOCAL_ORIGIN_FAILURE, 1 + r.nextInt(10));
            b.set(OutlierSetting.ENFORCING_CONSECUTIVE_LOCAL_ORIGIN_FAILURE, onOff(r));
            b.set(OutlierSetting.ENFORCING_LOCAL_ORIGIN_SUCCESS_RATE, onOff(r));
            b.set(OutlierSetting.ENFORCING_FAILURE_PERCENTAGE_LOCAL_ORIGIN, onOff(r));
        }
        if (r.nextInt(3) == 0 && version.compareTo(EnvoyVersion.ONLY_PASSING_CHECK_UNEJECTS) >= 0) {
            b.set(OutlierSetting.ALWAYS_EJECT_ONE_HOST, true);
        }
        return b.build();
    }

    /** A detector's enforcement: mostly off or on, sometimes in between (enforcement draws). */
    private static long onOff(SplittableRandom r) {
        int k = r.nextInt(5);
        return k < 2 ? 0 : k < 4 ? 100 : r.nextInt(101);
    }

    /** What the JSON does not carry: per-host counts, every event's count and widths, the callers of the events. */
    private static List<Object> rest(RunResult r) {
        return List.of(
                r.hosts(),
                r.eventCount(),
                r.eventHostWidth(),
                r.eventClients(),
                r.summary(),
                r.stats(),
                r.events(),
                r.panicWindows(),
                Objects.toString(r.signals().flapping()));
    }

    private static String firstDifference(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        int from = Math.max(0, i - 300);
        return "\n--- per-request:\n" + a.substring(from, Math.min(a.length(), i + 200)) + "\n--- fast:\n"
                + b.substring(from, Math.min(b.length(), i + 200));
    }

    private static String yaml(Scenario s) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(ScenarioWriter.toMap(s));
    }
}
