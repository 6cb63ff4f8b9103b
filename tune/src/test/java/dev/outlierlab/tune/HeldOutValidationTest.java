package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.FaultResult;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Held-out validation: each cluster of a small matrix (Envoy at 4, 8 and 20 hosts, 1 and 5 callers, releases 1.28
 * and 1.40, the gateway at 4 endpoints, gRPC at 6 hosts) is tuned on a reduced built-in suite, and the
 * recommendation is then run on scenarios the search never scored: other depths (35 %, 45 %, 70 %), failures in
 * bursts, another status, a dead host refusing connections over another window, shared outages at 10 % and 40 %, a
 * pool noisier than the suite's, always on the last host rather than the first. Beside it run detection off, the
 * target's defaults and every setting the search could express (the brute-force sweep, a coarse grid). Wherever a
 * setting of that grid that ejects nothing in the mild held-out conditions (shared outage at 10 %, the noisy pool)
 * removes at least half of the avoidable failures of a host failing 35 % or more, the recommendation does too; a
 * dead host is out within 10 s (a detector of the target's interval runs at most 10 s after the fault starts) wherever
 * some setting of the target sees it that fast.
 */
class HeldOutValidationTest {
    private static final long S = Durations.SECOND;
    private static final long DURATION = 180 * S;
    private static final long START = 20 * S;
    private static final long END = 160 * S;
    private static final Set<String> TUNED_ON = Set.of(
            "one-host-partial",
            "one-host-dead-503",
            "several-hosts-partial",
            "shared-outage",
            "noisy-pool",
            "bad-requests");
    private static final EnvoyVersion V128 = new EnvoyVersion(1, 28);

    record Cell(Target target, int hosts, long rps, int callers, EnvoyVersion version) {
        String label() {
            return target.flag() + " " + hosts + "h " + rps + "rps " + callers + "c " + version;
        }
    }

    private static final List<Cell> MATRIX = List.of(
            new Cell(EnvoyTarget.ENVOY, 4, 200, 1, EnvoyVersion.DEFAULT),
            new Cell(EnvoyTarget.ENVOY, 8, 400, 1, EnvoyVersion.DEFAULT),
            new Cell(EnvoyTarget.ENVOY, 20, 1000, 1, EnvoyVersion.DEFAULT),
            new Cell(EnvoyTarget.ENVOY, 8, 1000, 5, EnvoyVersion.DEFAULT),
            new Cell(EnvoyTarget.ENVOY, 6, 300, 1, V128),
            new Cell(GatewayTuneTarget.INSTANCE, 4, 200, 1, EnvoyVersion.DEFAULT),
            new Cell(GrpcTarget.INSTANCE, 6, 300, 1, EnvoyVersion.DEFAULT));

    /** A scenario the search never scores, and how deep its failing host fails (0 where none should go). */
    record HeldOut(SuiteScenario scenario, int depthPercent, boolean dead) {}

    static List<HeldOut> heldOut(int n, long rps, int callers) {
        String last = DefaultSuite.name(n - 1);
        List<HeldOut> out = new ArrayList<>();
        out.add(new HeldOut(
                oneHost("held-one-host-45", n, rps, callers, last, 450_000, 503, null, FaultPattern.RANDOM, START, END),
                45,
                false));
        out.add(new HeldOut(
                oneHost(
                        "held-one-host-35-bursts",
                        n,
                        rps,
                        callers,
                        last,
                        350_000,
                        503,
                        null,
                        FaultPattern.BURSTS,
                        START,
                        END),
                35,
                false));
        out.add(new HeldOut(
                oneHost(
                        "held-one-host-70-502",
                        n,
                        rps,
                        callers,
                        last,
                        700_000,
                        502,
                        null,
                        FaultPattern.RANDOM,
                        START,
                        END),
                70,
                false));
        out.add(new HeldOut(
                oneHost(
                        "held-one-host-refused",
                        n,
                        rps,
                        callers,
                        last,
                        1_000_000,
                        503,
                        FaultResult.CONNECT_FAILED,
                        FaultPattern.RANDOM,
                        60 * S,
                        150 * S),
                100,
                true));
        out.add(new HeldOut(everyHost("held-shared-outage-10", n, rps, callers, 100_000), 0, false));
        out.add(new HeldOut(everyHost("held-shared-outage-40", n, rps, callers, 400_000), 0, false));
        List<FaultSpec> noise = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            noise.add(fault(
                    List.of(DefaultSuite.name(h)),
                    0,
                    DURATION,
                    10_000 + 30_000L * h / (n - 1),
                    503,
                    null,
                    FaultPattern.RANDOM));
        }
        out.add(new HeldOut(
                suite("held-noisy-1-to-4", n, rps, callers, noise, Expectation.NONE, Set.of(), 0, DURATION), 0, false));
        return out;
    }

    private static SuiteScenario oneHost(
            String name,
            int n,
            long rps,
            int callers,
            String host,
            long ppm,
            int status,
            FaultResult result,
            FaultPattern pattern,
            long start,
            long end) {
        return suite(
                name,
                n,
                rps,
                callers,
                List.of(fault(List.of(host), start, end, ppm, status, result, pattern)),
                Expectation.EJECT,
                Set.of(host),
                start,
                end);
    }

    private static SuiteScenario everyHost(String name, int n, long rps, int callers, long ppm) {
        List<String> all = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            all.add(DefaultSuite.name(h));
        }
        return suite(
                name,
                n,
                rps,
                callers,
                List.of(fault(all, START, END, ppm, 503, null, FaultPattern.RANDOM)),
                Expectation.NONE,
                Set.of(),
                START,
                END);
    }

    private static FaultSpec fault(
            List<String> hosts, long start, long end, long ppm, int status, FaultResult result, FaultPattern pattern) {
        return FaultSpec.builder()
                .hosts(hosts)
                .window(start, end)
                .errorRatePpm(ppm)
                .status(status)
                .result(result)
                .pattern(pattern)
                .burstLengthMilli(2_000)
                .build();
    }

    private static SuiteScenario suite(
            String name,
            int n,
            long rps,
            int callers,
            List<FaultSpec> faults,
            Expectation expect,
            Set<String> eject,
            long start,
            long end) {
        Scenario s = Scenario.builder()
                .name(name)
                .durationNanos(DURATION)
                .seed(1)
                .cluster(ClusterSpec.ofCount(n, 50))
                .traffic(new TrafficSpec(rps, callers))
                .faults(faults)
                .outlierDetection(TuneRuns.OFF)
                .build();
        return new SuiteScenario(name, name, expect, s, eject, expect == Expectation.EJECT, start, end);
    }

    static TuneRequest request(Cell c) {
        CurrentSettings cur = CurrentSettings.defaults("search", c.target(), c.hosts());
        List<SuiteScenario> suite = new DefaultSuite(c.hosts(), c.rps(), c.callers(), 0)
                .scenarios().stream().filter(s -> TUNED_ON.contains(s.name())).toList();
        return new TuneRequest(
                "search",
                null,
                c.hosts(),
                c.rps(),
                c.callers(),
                c.target(),
                c.version(),
                cur.config(),
                cur.panicThresholdPercent(),
                suite,
                1,
                1,
                TuneRequest.defaultMaxEjected(c.hosts()),
                0,
                2,
                cur.profile(),
                null,
                List.of());
    }

    /** One setting's scores on the held-out scenarios, in their order. */
    private static List<ScenarioScore> score(
            TuneRequest req,
            Target.Written w,
            List<HeldOut> held,
            List<RunFigures> off,
            List<RunFigures> correct,
            TuneRuns runner) {
        List<TuneRuns.Job> jobs = new ArrayList<>();
        for (HeldOut h : held) {
            SuiteScenario sc = h.scenario();
            jobs.add(new TuneRuns.Job(
                    sc, sc.with(1, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
        }
        List<RunFigures> mine = runner.run(jobs, u -> {});
        List<ScenarioScore> out = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            out.add(new ScenarioScore(
                    held.get(i).scenario(), List.of(mine.get(i)), List.of(off.get(i)), List.of(correct.get(i))));
        }
        return out;
    }

    /** A setting ejects nothing in the mild held-out conditions: a 10 % shared outage and the noisy pool. */
    private static boolean quietWhenMild(List<HeldOut> held, List<ScenarioScore> scores) {
        for (int i = 0; i < held.size(); i++) {
            String name = held.get(i).scenario().name();
            if ((name.equals("held-shared-outage-10") || name.equals("held-noisy-1-to-4"))
                    && scores.get(i).falseEjections() > 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void recommendationsHoldOnScenariosTheSearchNeverScored() {
        TuneRuns runner = new TuneRuns(2);
        List<String> failures = new ArrayList<>();
        System.out.println(String.format(
                Locale.ROOT,
                "%-34s %-24s %6s %8s %8s %8s %7s %7s",
                "cluster",
                "held-out",
                "off%",
                "default",
                "tuned",
                "grid",
                "detect",
                "false"));
        for (Cell c : MATRIX) {
            TuneRequest req = request(c);
            TuneResult r = Tuner.tune(req, u -> {});
            List<HeldOut> held = heldOut(c.hosts(), c.rps(), c.callers());
            List<TuneRuns.Job> base = new ArrayList<>();
            for (HeldOut h : held) {
                base.add(h.scenario().offJob(req, 1));
                base.add(h.scenario().correctJob(req, 1));
            }
            List<RunFigures> baseFigures = runner.run(base, u -> {});
            List<RunFigures> off = new ArrayList<>();
            List<RunFigures> correct = new ArrayList<>();
            for (int i = 0; i < held.size(); i++) {
                off.add(baseFigures.get(2 * i));
                correct.add(baseFigures.get(2 * i + 1));
            }
            Setting defaults = req.currentSetting();
            Target.Written dw = req.target()
                    .write(
                            defaults,
                            "search",
                            c.hosts(),
                            req.current(),
                            req.currentPanicPercent(),
                            req.currentProfile(),
                            req.envoyVersion());
            List<ScenarioScore> def = score(
                    req,
                    new Target.Written(dw.text(), req.current(), req.currentPanicPercent(), req.currentProfile()),
                    held,
                    off,
                    correct,
                    runner);
            List<ScenarioScore> tuned = score(req, r.recommended().written(), held, off, correct, runner);
            double[] gridBest = new double[held.size()];
            double[] gridFastest = new double[held.size()];
            Arrays.fill(gridBest, Double.NEGATIVE_INFINITY);
            Arrays.fill(gridFastest, Double.POSITIVE_INFINITY);
            for (Setting s : SearchSpace.candidates(req)) {
                Target.Written w = req.target()
                        .write(
                                s,
                                "search",
                                c.hosts(),
                                req.current(),
                                req.currentPanicPercent(),
                                req.currentProfile(),
                                req.envoyVersion());
                List<ScenarioScore> g = score(req, w, held, off, correct, runner);
                if (!quietWhenMild(held, g)) {
                    continue;
                }
                for (int i = 0; i < held.size(); i++) {
                    double removed = g.get(i).removedPercent();
                    if (!Double.isNaN(removed)) {
                        gridBest[i] = Math.max(gridBest[i], removed);
                    }
                    double detect = g.get(i).detectSeconds();
                    if (!Double.isNaN(detect)) {
                        gridFastest[i] = Math.min(gridFastest[i], detect);
                    }
                }
            }
            for (int i = 0; i < held.size(); i++) {
                HeldOut h = held.get(i);
                ScenarioScore t = tuned.get(i);
                System.out.println(String.format(
                        Locale.ROOT,
                        "%-34s %-24s %6.1f %8s %8s %8s %7s %7.0f",
                        c.label(),
                        h.scenario().name(),
                        t.failedPercentDuringFault(true),
                        pct(def.get(i).removedPercent()),
                        pct(t.removedPercent()),
                        pct(gridBest[i]),
                        secs(t.detectSeconds()),
                        t.falseEjections()));
                String where = c.label() + " " + h.scenario().name() + " ("
                        + r.recommended().setting().label() + ")";
                if (h.depthPercent() >= 35 && gridBest[i] >= 50 && !(t.removedPercent() >= 50)) {
                    failures.add(where + ": the grid removes " + pct(gridBest[i]) + ", the recommendation "
                            + pct(t.removedPercent()));
                }
                if (h.dead() && gridFastest[i] <= 10 && !(t.detectSeconds() <= 10)) {
                    failures.add(where + ": a dead host is out after " + secs(t.detectSeconds()) + " (the grid: "
                            + secs(gridFastest[i]) + ")");
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    private static String pct(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%.0f%%", v);
    }

    private static String secs(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%.1fs", v);
    }
}
