package dev.outlierlab.tune;

import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongConsumer;

/**
 * The search of {@code tune}, coarse to fine: every candidate the target can express ({@link SearchSpace}) is first
 * run on the whole suite with the first seed; the {@link #COARSE_KEEP} best of those and their front of benefit
 * against harm are screened with the first few seeds; the current setting, the best admissible candidates and the screening's front are
 * then run on every seed, and the front, the recommendation and its explanation come from those runs. Detection off
 * and the correct action are run once per scenario and seed and shared by all candidates. Runs are cached by
 * candidate, scenario and seed, so a finalist's screening runs count toward its final score; a run that another
 * provably gives (a candidate less sensitive than one that never detected, a larger cap than one never reached:
 * {@link RunSharing}) is taken from that one, so candidates are run in waves.
 */
public final class Tuner {
    /** Candidates re-run with every seed (besides the current setting and the screening front). */
    static final int FINALISTS = 8;
    /** Candidates kept after the coarse step (one seed) for the screening (the first few seeds), besides its front. */
    static final int COARSE_KEEP = 24;

    /** Rows of the front shown. */
    public static final int FRONT_ROWS = 8;

    private final TuneRequest req;
    private final RunExecutor runner;
    private final LongConsumer progress;
    private final Map<String, RunFigures> cache = new HashMap<>();
    private RunSharing sharing;
    /** The cache key of the first run of each {@link RunSharing#runKey}, scenario and seed. */
    private final Map<String, String> sameRuns = new HashMap<>();

    private long runs;
    /** Whether runs that are detection off's but for the detections the cap refused are taken from it until printed. */
    private final boolean refusedFromOff;

    /** The count of refused detections of a run taken from detection off's, not known until the run is made. */
    private static final long UNKNOWN = -1;

    /** The pilot that estimates the search from its first runs, until it has; null for none. */
    private SearchPilot pilot;

    private Tuner(TuneRequest req, LongConsumer progress, RunExecutor runner, boolean refusedFromOff) {
        this.req = req;
        this.runner = runner;
        this.progress = progress;
        this.refusedFromOff = refusedFromOff;
    }

    /** Runs the search; {@code progress} receives the work of each finished run (see {@link #plannedUnits}). */
    public static TuneResult tune(TuneRequest req, LongConsumer progress) {
        return tune(req, progress, new TuneRuns(req.threads()));
    }

    /** Runs the search with its runs made by {@code runner} (e.g. a Flink job) instead of the local threads. */
    public static TuneResult tune(TuneRequest req, LongConsumer progress, RunExecutor runner) {
        return tune(req, progress, runner, null);
    }

    /**
     * Runs the search, telling {@code check} (unless null) the estimate of its whole work once its first runs, the
     * pilot, are made ({@link SearchPilot}); {@code check} may throw to stop it there. The pilot is the start of the
     * search itself, so the result is the same with a check or without, byte for byte.
     */
    public static TuneResult tune(TuneRequest req, LongConsumer progress, RunExecutor runner, SearchPilot.Check check) {
        Tuner t = new Tuner(req, progress, runner == null ? new TuneRuns(req.threads()) : runner, true);
        t.pilot = check == null
                ? null
                : new SearchPilot(req, SearchSpace.candidates(req).size() + 1, check);
        return t.search();
    }

    /**
     * The search with every run of the settings that are not printed made as well, where the refused rule of
     * {@link RunSharing} would take it from detection off: the same result but for the count of runs.
     */
    static TuneResult tuneMakingEveryRefusedRun(TuneRequest req, RunExecutor runner) {
        return new Tuner(req, u -> {}, runner, false).search();
    }

    /**
     * The work the search will do, in request-equivalents ({@link WorkEstimate}, on the path each run takes), for the
     * progress bar and the work limit: detection off on every seed, the correct action where it is another run than
     * detection off (where nothing should be ejected it is the same run, made once), every candidate on the screening
     * seeds, the finalists on the remaining seeds, and the breaking points' probes of the recommendation. Each
     * candidate run is counted as if none were shared ({@link RunSharing} shares runs by their figures, known only
     * once they are made), so the estimate is at most this.
     */
    public static long plannedUnits(TuneRequest req) {
        long candidateUnits = 0;
        long baselineUnits = 0;
        for (SuiteScenario s : req.suite()) {
            TuneRuns.Job off = s.offJob(req, 1);
            TuneRuns.Job correct = s.correctJob(req, 1);
            candidateUnits += TuneRuns.units(new TuneRuns.Job(s, s.scenario()));
            baselineUnits += TuneRuns.units(off) + (correct.equals(off) ? 0 : TuneRuns.units(correct));
        }
        long candidates = SearchSpace.candidates(req).size() + 1L;
        long screened = screened(req, candidates);
        long finalists = Math.min(candidates, FINALISTS + FRONT_ROWS + 1L);
        long candidateRuns =
                candidates + screened * (req.screenSeeds() - 1L) + finalists * (req.seeds() - req.screenSeeds());
        long probeUnits = 0;
        for (SuiteScenario p : BreakingPoints.probes(req)) {
            probeUnits += TuneRuns.units(new TuneRuns.Job(p, p.scenario()));
        }
        return req.seeds() * baselineUnits + candidateRuns * candidateUnits + BreakingPoints.SEEDS.length * probeUnits;
    }

    /** The most candidates the screening runs on its seeds (all of them when the coarse step keeps all). */
    static long screened(TuneRequest req, long candidates) {
        return req.screenSeeds() <= 1 ? candidates : Math.min(candidates, COARSE_KEEP + 2L * FRONT_ROWS + 1L);
    }

    /**
     * The search's plan in words, for the work limit's message: e.g. {@code 106 candidates on one seed, at most 41
     * on 2, at most 17 on 8}.
     */
    public static String plannedSearch(TuneRequest req) {
        long candidates = SearchSpace.candidates(req).size() + 1L;
        long screened = screened(req, candidates);
        long finalists = Math.min(candidates, FINALISTS + FRONT_ROWS + 1L);
        String words = candidates + (candidates == 1 ? " candidate" : " candidates") + " on one seed";
        if (req.screenSeeds() > 1) {
            words += ", at most " + screened + " on " + req.screenSeeds();
        }
        if (req.seeds() > req.screenSeeds()) {
            words += ", at most " + finalists + " on " + req.seeds();
        }
        return words;
    }

    private TuneResult search() {
        List<Setting> settings = new ArrayList<>();
        Setting currentSetting = req.currentSetting();
        settings.add(currentSetting);
        settings.addAll(SearchSpace.candidates(req));
        List<Target.Written> written = new ArrayList<>();
        Target.Written currentWritten = req.write(currentSetting);
        written.add(new Target.Written(
                currentWritten.text(), req.current(), req.currentPanicPercent(), req.currentProfile()));
        for (int i = 1; i < settings.size(); i++) {
            written.add(req.write(settings.get(i)));
        }
        baselines(1);
        if (pilot != null) {
            pilot.baselines(cache);
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < settings.size(); i++) {
            all.add(i);
        }
        List<Evaluation> screened = evaluate(coarse(all, settings, written), settings, written, req.screenSeeds());
        Set<Integer> finalists = new LinkedHashSet<>();
        finalists.add(0);
        screened.stream().sorted(Choice.RANKING).limit(FINALISTS).forEach(e -> finalists.add(e.candidate()));
        Choice.pareto(screened).stream().limit(FRONT_ROWS).forEach(e -> finalists.add(e.candidate()));
        List<Evaluation> finals = new ArrayList<>();
        for (Evaluation e : evaluate(new ArrayList<>(finalists), settings, written, req.seeds())) {
            List<String> findings = Explanation.findings(req, e.written());
            finals.add(
                    Explanation.hasCheckError(findings)
                            ? e.violating(Evaluation.CHECK_ERROR
                                    + findings.stream()
                                            .filter(f -> f.startsWith("error ") || f.contains(" cap-admits-no-host: "))
                                            .findFirst()
                                            .orElse(findings.get(0)))
                            : e);
        }
        Evaluation current = finals.get(0);
        Evaluation best = Choice.choose(finals, current);
        List<Evaluation> front = Choice.front(finals, best);
        Map<Integer, Evaluation> printed = exact(current, front, best);
        current = printed.get(current.candidate());
        best = printed.get(best.candidate());
        front = front.stream().map(e -> printed.get(e.candidate())).toList();
        BreakingPoints points = BreakingPoints.of(req, best.written(), runner, n -> runs += n);
        return Explanation.result(req, current, front, best, settings.size() - 1, runs)
                .breakingAt(points);
    }

    /**
     * The coarse step: every candidate on the first seed; kept for the screening are the current setting, the
     * {@link #COARSE_KEEP} best by {@link Choice#RANKING} and the first rows of their front, in the candidates' order. All
     * are kept when there are few, or when the screening has one seed only.
     */
    private List<Integer> coarse(List<Integer> all, List<Setting> settings, List<Target.Written> written) {
        if (req.screenSeeds() <= 1 || all.size() <= COARSE_KEEP + 2 * FRONT_ROWS + 1) {
            return all;
        }
        List<Evaluation> first = evaluate(all, settings, written, 1);
        Set<Integer> kept = new TreeSet<>();
        kept.add(0);
        first.stream().sorted(Choice.RANKING).limit(COARSE_KEEP).forEach(e -> kept.add(e.candidate()));
        Choice.pareto(first).stream().limit(2L * FRONT_ROWS).forEach(e -> kept.add(e.candidate()));
        return new ArrayList<>(kept);
    }

    private void baselines(int seeds) {
        List<TuneRuns.Job> jobs = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<String> same = new ArrayList<>();
        for (int s = 0; s < req.suite().size(); s++) {
            SuiteScenario sc = req.suite().get(s);
            for (int seed = 1; seed <= seeds; seed++) {
                if (cache.containsKey("off/" + s + "/" + seed)) {
                    continue;
                }
                TuneRuns.Job off = sc.offJob(req, seed);
                jobs.add(off);
                keys.add("off/" + s + "/" + seed);
                TuneRuns.Job correct = sc.correctJob(req, seed);
                if (correct.equals(off)) {
                    // where nothing should be ejected the correct action is detection off: the same run
                    same.add(s + "/" + seed);
                    progress.accept(TuneRuns.units(correct));
                } else {
                    jobs.add(correct);
                    keys.add("correct/" + s + "/" + seed);
                }
            }
        }
        runAll(jobs, keys);
        same.forEach(k -> cache.put("correct/" + k, cache.get("off/" + k)));
    }

    private List<Evaluation> evaluate(
            List<Integer> candidates, List<Setting> settings, List<Target.Written> written, int seeds) {
        if (sharing == null) {
            sharing = new RunSharing(written, req.suite(), req.envoyVersion());
        }
        baselines(seeds); // the runs without detection they are scored against
        for (List<Integer> wave : sharing.waves(candidates)) {
            List<TuneRuns.Job> jobs = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            // runs the same as one made in this wave, filled in once it is: key -> key of that run
            Map<String, String> after = new HashMap<>();
            for (int c : wave) {
                Target.Written w = written.get(c);
                for (int s = 0; s < req.suite().size(); s++) {
                    SuiteScenario sc = req.suite().get(s);
                    for (int seed = 1; seed <= seeds; seed++) {
                        String key = c + "/" + s + "/" + seed;
                        if (cache.containsKey(key)) {
                            continue;
                        }
                        Scenario run = sc.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion());
                        TuneRuns.Job job = new TuneRuns.Job(sc, run, w.profile());
                        if (pilot != null) {
                            pilot.slot(s);
                        }
                        if (refusesAll(c, sc)) {
                            // detection off's run but for the refused detections, counted once it is printed
                            cache.put(key, cache.get("off/" + s + "/" + seed).withOverflows(UNKNOWN));
                            progress.accept(TuneRuns.units(job));
                            continue;
                        }
                        String runKey =
                                sharing.runKey(c, sc.scenario().cluster().size());
                        String first = runKey == null ? null : sameRuns.get(runKey + "/" + s + "/" + seed);
                        RunFigures same = first != null ? cache.get(first) : shared(c, s, seed, sc);
                        if (same != null) {
                            cache.put(key, same);
                            progress.accept(TuneRuns.units(job));
                        } else if (first != null) {
                            after.put(key, first);
                            progress.accept(TuneRuns.units(job));
                        } else {
                            jobs.add(job);
                            keys.add(key);
                            if (runKey != null) {
                                sameRuns.put(runKey + "/" + s + "/" + seed, key);
                            }
                        }
                    }
                }
            }
            runAll(jobs, keys);
            after.forEach((key, first) -> cache.put(key, cache.get(first)));
            if (pilot != null && pilot.made(jobs, keys, cache, wave.size())) {
                pilot = null; // estimated, and not stopped
            }
        }
        List<Evaluation> out = new ArrayList<>();
        for (int c : candidates) {
            out.add(Evaluation.of(
                    c,
                    settings.get(c),
                    written.get(c),
                    scores(c, seeds),
                    req.maxEjected(),
                    req.maxFalsePerDay(),
                    req.maxAddedPerThousand()));
        }
        return out;
    }

    /** Candidate {@code c}'s runs of every scenario on the first {@code seeds} seeds, beside detection off's. */
    private List<ScenarioScore> scores(int c, int seeds) {
        List<ScenarioScore> scores = new ArrayList<>();
        for (int s = 0; s < req.suite().size(); s++) {
            List<RunFigures> mine = new ArrayList<>();
            List<RunFigures> off = new ArrayList<>();
            List<RunFigures> correct = new ArrayList<>();
            for (int seed = 1; seed <= seeds; seed++) {
                mine.add(cache.get(c + "/" + s + "/" + seed));
                off.add(cache.get("off/" + s + "/" + seed));
                correct.add(cache.get("correct/" + s + "/" + seed));
            }
            scores.add(new ScenarioScore(req.suite().get(s), mine, off, correct));
        }
        return scores;
    }

    /**
     * Whether candidate {@code c}'s run of {@code sc} is detection off's but for the detections the cap refused
     * ({@link RunSharing#refusesAll}).
     */
    private boolean refusesAll(int c, SuiteScenario sc) {
        return refusedFromOff
                && sharing.refusesAll(
                        c,
                        sc.scenario().cluster().size(),
                        TuneRuns.OFF,
                        req.currentPanicPercent(),
                        req.currentProfile().off());
    }

    /**
     * The printed evaluations (the current setting, the front, the recommendation) by candidate, each with its own
     * runs where one was taken from detection off's: those are made now, for the count of detections the cap refused
     * (the scores do not read it, so they stay as they are).
     */
    private Map<Integer, Evaluation> exact(Evaluation current, List<Evaluation> front, Evaluation best) {
        Map<Integer, Evaluation> printed = new TreeMap<>();
        printed.put(current.candidate(), current);
        front.forEach(e -> printed.put(e.candidate(), e));
        printed.put(best.candidate(), best);
        List<TuneRuns.Job> jobs = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        Set<Integer> redo = new TreeSet<>();
        for (Evaluation e : printed.values()) {
            Target.Written w = e.written();
            for (int s = 0; s < req.suite().size(); s++) {
                SuiteScenario sc = req.suite().get(s);
                for (int seed = 1; seed <= req.seeds(); seed++) {
                    String key = e.candidate() + "/" + s + "/" + seed;
                    if (cache.get(key).overflows() == UNKNOWN) {
                        Scenario run = sc.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion());
                        jobs.add(new TuneRuns.Job(sc, run, w.profile()));
                        keys.add(key);
                        redo.add(e.candidate());
                    }
                }
            }
        }
        if (!jobs.isEmpty()) {
            // their work was counted when they were taken from detection off's
            List<RunFigures> figures = runner.run(jobs, u -> {});
            for (int i = 0; i < keys.size(); i++) {
                cache.put(keys.get(i), figures.get(i));
            }
            runs += jobs.size();
        }
        redo.forEach(c -> printed.put(c, printed.get(c).withScores(scores(c, req.seeds()))));
        return printed;
    }

    /** A run already made that is provably candidate {@code c}'s run of scenario {@code s} and this seed, or null. */
    private RunFigures shared(int c, int s, int seed, SuiteScenario sc) {
        int hosts = sc.scenario().cluster().size();
        for (int a : sharing.coveredBy(c)) {
            RunFigures fa = cache.get(a + "/" + s + "/" + seed);
            if (fa != null && sharing.stands(a, c, fa, hosts)) {
                return fa;
            }
        }
        return null;
    }

    private void runAll(List<TuneRuns.Job> jobs, List<String> keys) {
        if (jobs.isEmpty()) {
            return;
        }
        List<RunFigures> figures = runner.run(jobs, progress);
        for (int i = 0; i < keys.size(); i++) {
            cache.put(keys.get(i), figures.get(i));
        }
        runs += jobs.size();
    }
}
