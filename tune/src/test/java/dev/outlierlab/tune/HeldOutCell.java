package dev.outlierlab.tune;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.scenario.RoutingSpec;
import dev.outlierlab.tune.HeldOutScenarios.HeldOut;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One cluster of the held-out matrix: the target, hosts, rate, callers and Envoy release; its tune on a reduced
 * built-in suite, and the recommendation, detection off, the target's defaults and a brute-force sweep of the
 * settings the search can express, each run on the held-out scenarios (seed 1). A swept setting that does better than
 * the recommendation on a property counts only if it meets the constraint the search applies by default: no false
 * ejection in the built-in should-not-eject scenarios (seed 1); one that breaks it is a trade-off the output must
 * state, not a better answer. What it finds is kept as figures
 * ({@link Found}) and as the properties it breaks ({@link Found#gaps()}), each a line naming the cell.
 */
record HeldOutCell(Target target, int hosts, long rps, int callers, EnvoyVersion version) {
    /** The built-in scenarios the matrix tunes on (a reduced suite, for time). */
    static final Set<String> TUNED_ON =
            Set.of("one-host-partial", "one-host-dead-503", "shared-outage", "noisy-pool", "bad-requests");

    /** At most this many settings of the search space are swept; more are strided evenly (a coarse grid). */
    static final int GRID = 24;

    /** The mild held-out conditions a swept setting must eject nothing in to count. */
    static final Set<String> MILD = Set.of("held-shared-10", "held-noisy-1-to-4");

    /** Within this long of its fault's start a dead host must be out. */
    static final double DEAD_WITHIN_SECONDS = 10;

    String label() {
        return target.flag() + " " + hosts + "h " + rps + "rps " + callers + "c " + version;
    }

    /**
     * What a cell found: the tune's result and rendered text, the held-out scenarios, the figures of each setting on
     * them (defaults, recommendation), the sweep's best share removed and fastest detection per scenario (among the
     * settings that eject nothing in the mild conditions), the grid's size, and the properties broken.
     */
    record Found(
            HeldOutCell cell,
            TuneResult result,
            List<HeldOut> held,
            List<ScenarioScore> defaults,
            List<ScenarioScore> tuned,
            double[] gridBest,
            double[] gridFastest,
            int swept,
            int space,
            List<HeldOutBreaks.Compared> breaks,
            List<String> stated,
            List<String> gaps) {}

    /**
     * The request a user's {@code tune --target ... --hosts ... --rps ... --clients ...} makes, on the reduced suite
     * (routed as the target routes it: Istio's retries).
     */
    TuneRequest request() {
        return request(TUNED_ON);
    }

    /** The same request on the built-in scenarios named. */
    TuneRequest request(Set<String> tunedOn) {
        int clients = callers;
        long rate = rps;
        if (callers > 1 && target.oneCallerEach(callers, rps) != null) {
            clients = 1; // each caller a detector of its own: one caller's share, as tune does
            rate = Math.max(1, rps / callers);
        }
        CurrentSettings cur = CurrentSettings.defaults("search", target, hosts);
        RoutingSpec routes = TargetRoutes.of(cur);
        List<SuiteScenario> suite = new DefaultSuite(hosts, rate, clients, 0)
                .scenarios().stream()
                        .filter(s -> tunedOn.contains(s.name()))
                        .map(s -> routes == null ? s : s.routedBy(routes))
                        .toList();
        return TuneRequest.builder()
                .name("search")
                .hosts(hosts)
                .rps(rate)
                .clients(clients)
                .target(target)
                .envoyVersion(version)
                .current(cur.config())
                .currentPanicPercent(cur.panicThresholdPercent())
                .suite(suite)
                .screenSeeds(1)
                .seeds(1)
                .maxEjected(TuneRequest.defaultMaxEjected(hosts))
                .baseErrorPpm(0)
                .threads(2)
                .currentProfile(cur.profile())
                .build();
    }

    Found evaluate(TuneRuns runner) {
        TuneRequest req = request();
        TuneResult r = Tuner.tune(req, u -> {});
        // routed as the target routes the suite (Istio: istiod's retries), as a user's cluster is
        RoutingSpec routes = TargetRoutes.of(CurrentSettings.defaults("search", target, hosts));
        // (the weighted host left out there: the lab does not model load-balancing weights with retries)
        List<HeldOut> held = HeldOutScenarios.of(hosts, req.rps(), req.clients()).stream()
                .filter(h -> routes == null
                        || h.scenario().scenario().load().weights().isEmpty())
                .map(h -> routes == null ? h : new HeldOut(h.scenario().routedBy(routes), h.depthPercent(), h.dead()))
                .toList();
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
        Target.Written dw = write(req, req.currentSetting());
        List<ScenarioScore> def = score(
                req,
                new Target.Written(dw.text(), req.current(), req.currentPanicPercent(), req.currentProfile()),
                held,
                off,
                correct,
                runner);
        List<ScenarioScore> tuned = score(req, r.recommended().written(), held, off, correct, runner);
        List<Setting> space = SearchSpace.candidates(req);
        List<Setting> grid = grid(space);
        double[] best = new double[held.size()];
        double[] fastest = new double[held.size()];
        Arrays.fill(best, Double.NEGATIVE_INFINITY);
        Arrays.fill(fastest, Double.POSITIVE_INFINITY);
        // the sweep runs what its properties need: the should-eject scenarios and the mild ones it must stay quiet in
        List<Integer> swept = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            if (held.get(i).depthPercent() > 0 || MILD.contains(held.get(i).name())) {
                swept.add(i);
            }
        }
        List<HeldOut> sweptHeld = swept.stream().map(held::get).toList();
        List<RunFigures> sweptOff = swept.stream().map(off::get).toList();
        List<RunFigures> sweptCorrect = swept.stream().map(correct::get).toList();
        // the sweep's scores first; then, of the settings that would beat the recommendation on a property, only those
        // that meet the constraint tune applies by default (no false ejection in the built-in should-not-eject
        // scenarios, seed 1) count: a setting the user's constraints rule out is a trade-off, not a miss
        List<List<ScenarioScore>> sweep = new ArrayList<>();
        for (Setting s : grid) {
            List<ScenarioScore> g = score(req, write(req, s), sweptHeld, sweptOff, sweptCorrect, runner);
            sweep.add(quietWhenMild(sweptHeld, g) ? g : null);
            if (sweep.get(sweep.size() - 1) != null) {
                keepBest(swept, g, best, fastest);
            }
        }
        double[] allowedBest = new double[held.size()];
        double[] allowedFastest = new double[held.size()];
        Arrays.fill(allowedBest, Double.NEGATIVE_INFINITY);
        Arrays.fill(allowedFastest, Double.POSITIVE_INFINITY);
        List<SuiteScenario> quiet = req.suite().stream()
                .filter(sc -> sc.expect() == Expectation.NONE)
                .toList();
        for (int k = 0; k < grid.size(); k++) {
            List<ScenarioScore> g = sweep.get(k);
            if (g == null
                    || !beats(held, swept, g, tuned)
                    || !quietInSuite(req, write(req, grid.get(k)), quiet, runner)) {
                continue;
            }
            keepBest(swept, g, allowedBest, allowedFastest);
        }
        List<String> gaps = new ArrayList<>();
        List<String> stated = new ArrayList<>();
        Map<String, TuneResult> retuned = new HashMap<>();
        String text = TuneText.render(r);
        for (int i = 0; i < held.size(); i++) {
            HeldOut h = held.get(i);
            ScenarioScore t = tuned.get(i);
            String where = label() + " " + h.name() + ": ";
            if (h.depthPercent() >= 35) {
                if (allowedBest[i] >= 50 && !(t.removedPercent() >= 50)) {
                    gaps.add(where + "the sweep removes " + pct(allowedBest[i]) + ", the recommendation "
                            + pct(t.removedPercent()));
                } else if (allowedBest[i] < 50
                        && !(t.removedPercent() >= 50)
                        && !Double.isNaN(t.removedPercent())
                        && !saysNoneCan(r, text)) {
                    // NaN: nothing to avoid here (nginx retries a refused connection on the next server)
                    gaps.add(where + "no setting removes half (the sweep's best " + pct(allowedBest[i])
                            + ") and the output does not say so");
                }
            }
            if (h.dead() && !(t.detectSeconds() <= DEAD_WITHIN_SECONDS)) {
                if (allowedFastest[i] <= DEAD_WITHIN_SECONDS) {
                    gaps.add(where + "a dead host is out after " + secs(t.detectSeconds()) + " (the sweep's fastest "
                            + secs(allowedFastest[i]) + ")");
                } else if (saysNotWithin(statedBy(req, r, h.name(), retuned), h.name())) {
                    stated.add(h.name() + ", stated by a tune scoring " + kindOf(h.name()) + ": "
                            + saying(statedBy(req, r, h.name(), retuned), h.name()));
                } else {
                    gaps.add(where + "a dead host is out after " + secs(t.detectSeconds())
                            + ", no setting is faster, and the output does not say so");
                }
            }
        }
        List<HeldOutBreaks.Compared> breaks = HeldOutBreaks.compare(req, r, runner);
        gaps.addAll(HeldOutBreaks.disagreements(label(), breaks));
        return new Found(this, r, held, def, tuned, best, fastest, grid.size(), space.size(), breaks, stated, gaps);
    }

    /**
     * Whether the output says plainly that no setting removes much here, and why: the why's "no setting removes any"
     * sentence, or a one-host scenario on the "what no setting can catch" list.
     */
    static boolean saysNoneCan(TuneResult r, String text) {
        return text.contains("No setting the target can express removes any avoidable failure here")
                || r.cannotCatch().stream().anyMatch(l -> l.startsWith("one-host-"));
    }

    /** Keeps the most removed and the fastest detection per held-out scenario of one swept setting's scores. */
    private static void keepBest(List<Integer> swept, List<ScenarioScore> g, double[] best, double[] fastest) {
        for (int j = 0; j < swept.size(); j++) {
            int i = swept.get(j);
            double removed = g.get(j).removedPercent();
            if (!Double.isNaN(removed)) {
                best[i] = Math.max(best[i], removed);
            }
            double detect = g.get(j).detectSeconds();
            if (!Double.isNaN(detect)) {
                fastest[i] = Math.min(fastest[i], detect);
            }
        }
    }

    /**
     * The output that states what no setting can do with a dead host of this kind: the tune's own when its suite has
     * the built-in scenario of that kind; else (a host refusing connections: the reduced suite has none) a tune of the
     * same cluster with {@code one-host-refused} added, when it recommends the same setting (null when it does not).
     */
    private TuneResult statedBy(TuneRequest req, TuneResult r, String held, Map<String, TuneResult> retuned) {
        String kind = kindOf(held);
        if (req.suite().stream().anyMatch(s -> s.name().equals(kind))) {
            return r;
        }
        return retuned.computeIfAbsent(kind, k -> {
            Set<String> names = new HashSet<>(TUNED_ON);
            names.add(k);
            TuneResult t = Tuner.tune(request(names), u -> {});
            return t.recommended().setting().equals(r.recommended().setting()) ? t : null;
        });
    }

    /** The line of "what no setting can catch here" on this kind of dead host. */
    private static String saying(TuneResult r, String held) {
        return r.cannotCatch().stream()
                .filter(l -> l.startsWith(kindOf(held) + " ("))
                .findFirst()
                .orElseThrow();
    }

    private static String kindOf(String held) {
        return held.equals("held-refused") ? "one-host-refused" : "one-host-dead-503";
    }

    /**
     * Whether the output says plainly that no admissible setting takes this dead host out within 10 s (or none while
     * keeping the recommendation's benefit), and why: the line of the built-in scenario of the same kind, a host
     * refusing connections ({@code one-host-refused}) or answering every request with a 5xx
     * ({@code one-host-dead-503}).
     */
    static boolean saysNotWithin(TuneResult r, String held) {
        String kind = kindOf(held);
        return r != null
                && r.cannotCatch().stream().anyMatch(l -> l.startsWith(kind + " (") && l.contains("within 10 s"));
    }

    /**
     * Whether a swept setting does better than the recommendation on a property the test checks: removes half or more
     * of a 35 %-or-deeper failure the recommendation removes less than half of, or takes a dead host out within 10 s
     * where the recommendation does not.
     */
    private static boolean beats(
            List<HeldOut> held, List<Integer> swept, List<ScenarioScore> g, List<ScenarioScore> t) {
        for (int j = 0; j < swept.size(); j++) {
            int i = swept.get(j);
            HeldOut h = held.get(i);
            if (h.depthPercent() >= 35
                    && g.get(j).removedPercent() >= 50
                    && !(t.get(i).removedPercent() >= 50)) {
                return true;
            }
            if (h.dead()
                    && g.get(j).detectSeconds() <= DEAD_WITHIN_SECONDS
                    && !(t.get(i).detectSeconds() <= DEAD_WITHIN_SECONDS)
                    && keepsBenefit(held, swept, g, t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a swept setting removes half or more of every 35 %-or-deeper failure the recommendation removes half of:
     * one that takes a dead host out faster but gives that up (nginx without 5xx listed, which neither retries nor
     * counts them) is a trade-off, not a better answer.
     */
    private static boolean keepsBenefit(
            List<HeldOut> held, List<Integer> swept, List<ScenarioScore> g, List<ScenarioScore> t) {
        for (int j = 0; j < swept.size(); j++) {
            int i = swept.get(j);
            if (held.get(i).depthPercent() >= 35
                    && t.get(i).removedPercent() >= 50
                    && !(g.get(j).removedPercent() >= 50)) {
                return false;
            }
        }
        return true;
    }

    /** A setting ejects nothing in the suite's should-not-eject scenarios on seed 1 (the default constraint). */
    private static boolean quietInSuite(TuneRequest req, Target.Written w, List<SuiteScenario> quiet, TuneRuns runner) {
        List<TuneRuns.Job> jobs = new ArrayList<>();
        for (SuiteScenario sc : quiet) {
            jobs.add(new TuneRuns.Job(
                    sc, sc.with(1, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
        }
        return runner.run(jobs, u -> {}).stream().allMatch(f -> f.ejections() == 0);
    }

    /** The search space, or an evenly strided grid of {@link #GRID} of it when larger (first and last kept). */
    static List<Setting> grid(List<Setting> space) {
        if (space.size() <= GRID) {
            return space;
        }
        List<Setting> out = new ArrayList<>();
        for (int i = 0; i < GRID; i++) {
            out.add(space.get((int) Math.round(i * (space.size() - 1) / (double) (GRID - 1))));
        }
        return out;
    }

    private Target.Written write(TuneRequest req, Setting s) {
        return req.write(s);
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
            if (MILD.contains(held.get(i).name()) && scores.get(i).falseEjections() > 0) {
                return false;
            }
        }
        return true;
    }

    static String pct(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%.0f%%", v);
    }

    static String secs(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format(Locale.ROOT, "%.1fs", v);
    }
}
