package dev.outlierlab.tune;

import java.util.List;
import java.util.Map;

/**
 * A search's work estimated from its first runs, for the work limit of {@code tune}: the pilot is the start of the
 * search itself (detection off and the correct action on the first seed, then the search's first waves of candidates
 * on it until {@link #SHARE} of the candidates are through), so none of its runs is wasted. A bound known before
 * running ({@link PlannedWork}) must count as made every run that another candidate's run may stand for
 * ({@link RunSharing}: a candidate that ejected nothing stands for less sensitive ones, one whose cap refused nothing
 * for larger caps) and every failure as made, though a candidate that ejects a failing host spares the rest. The
 * pilot sees both, scenario by scenario: the share of the candidates' runs the search made rather than took from
 * another, and the work of each run made, from what it found ({@link RunCost#made}). The estimate is what the pilot made,
 * the rest of each scenario's runs at its share and its mean work of a run, detection off and the correct action on
 * the other seeds at the first seed's, and the breaking points' probes as planned, times {@link #SCALE_PERCENT} where
 * the pilot took any run from another. All
 * of it is counted by kind of work ({@link RunCost}), never timed: the same input always gives the same estimate and
 * decision.
 */
public final class SearchPilot {
    /** The pilot ends after the wave that takes the candidates through to this share of them (one in SHARE). */
    static final int SHARE = 8;

    /**
     * The estimate against what the pilot's runs say, in percent, where the pilot took some of its runs from others:
     * the first waves hold the most sensitive candidates, which others can least often stand for and whose runs cost
     * more, so what they say errs high (1.0 to 2.45 times the CPU the searches then took over the six Envoy and Istio
     * shapes of {@code dev.outlierlab.bench.TuneRate} on 2026-12-06, 0.64 to 1.59 times with this scale, whose {@code fit} prints the factor that centres them). Where the pilot
     * took none from another (gRPC's and the gateway's searches, whose runs none stands for) the estimate is as said.
     */
    public static final long SCALE_PERCENT = 65;

    /** What is told the estimate once the pilot has run. */
    @FunctionalInterface
    public interface Check {
        /** Called once, when the pilot's runs are made; may throw to stop the search there. */
        void estimated(Estimate estimate);
    }

    /**
     * The estimate of a whole search from its pilot.
     *
     * @param cost      the whole search's work, the pilot's included, with {@link #SCALE_PERCENT}
     * @param pilotRuns runs the pilot made
     * @param pilotCost the work of those runs
     * @param made      candidates' runs of the pilot the search made
     * @param slots     candidates' runs of the pilot the search needed figures for (made, or taken from another)
     */
    public record Estimate(RunCost cost, long pilotRuns, RunCost pilotCost, long made, long slots) {
        /** The whole search's CPU time at the kinds' costs, in nanoseconds. */
        public double nanos() {
            return cost.nanos();
        }
    }

    private final TuneRequest req;
    private final long candidates;
    private final Check check;
    private final long[] slots;
    private final long[] made;
    private final RunCost[] madeCost;
    private RunCost baselineCost = RunCost.NONE;
    private long baselineRuns;
    private long through;

    SearchPilot(TuneRequest req, long candidates, Check check) {
        this.req = req;
        this.candidates = candidates;
        this.check = check;
        int n = req.suite().size();
        this.slots = new long[n];
        this.made = new long[n];
        this.madeCost = new RunCost[n];
        java.util.Arrays.fill(madeCost, RunCost.NONE);
    }

    /** Detection off's and the correct action's runs of the first seed, made. */
    void baselines(Map<String, RunFigures> cache) {
        for (int s = 0; s < req.suite().size(); s++) {
            SuiteScenario sc = req.suite().get(s);
            TuneRuns.Job off = sc.offJob(req, 1);
            TuneRuns.Job correct = sc.correctJob(req, 1);
            baselineCost = baselineCost.plus(RunCost.made(off, cache.get("off/" + s + "/1")));
            baselineRuns++;
            if (!correct.equals(off)) {
                baselineCost = baselineCost.plus(RunCost.made(correct, cache.get("correct/" + s + "/1")));
                baselineRuns++;
            }
        }
    }

    /** The search needs a candidate's run of scenario {@code s} (it makes it, or takes another's). */
    void slot(int s) {
        slots[s]++;
    }

    /**
     * A wave of {@code waveSize} candidates is through, with {@code jobs} made under {@code keys}
     * ({@code candidate/scenario/seed}); once the pilot's share is through, tells the check the estimate and returns
     * true.
     */
    boolean made(List<TuneRuns.Job> jobs, List<String> keys, Map<String, RunFigures> cache, int waveSize) {
        for (int i = 0; i < jobs.size(); i++) {
            String key = keys.get(i);
            int s = Integer.parseInt(key.substring(key.indexOf('/') + 1, key.lastIndexOf('/')));
            made[s]++;
            madeCost[s] = madeCost[s].plus(RunCost.made(jobs.get(i), cache.get(key)));
        }
        through += waveSize;
        if (through * SHARE < candidates) {
            return false;
        }
        check.estimated(estimate());
        return true;
    }

    /** The whole search's work from the pilot's runs. */
    Estimate estimate() {
        long screened = Tuner.screened(req, candidates);
        long finalists = Math.min(candidates, Tuner.FINALISTS + Tuner.FRONT_ROWS + 1L);
        long allSlots =
                candidates + screened * (req.screenSeeds() - 1L) + finalists * (req.seeds() - req.screenSeeds());
        RunCost cost = baselineCost.times(req.seeds());
        long pilotRuns = baselineRuns;
        RunCost pilotCost = baselineCost;
        long madeRuns = 0;
        long slotsSeen = 0;
        for (int s = 0; s < slots.length; s++) {
            SuiteScenario sc = req.suite().get(s);
            double share = slots[s] == 0 ? 1 : made[s] / (double) slots[s];
            RunCost perRun = made[s] == 0
                    ? RunCost.planned(new TuneRuns.Job(sc, sc.scenario(), req.currentProfile()))
                    : madeCost[s].times(1.0 / made[s]);
            cost = cost.plus(madeCost[s]).plus(perRun.times(Math.max(0, allSlots - slots[s]) * share));
            pilotRuns += made[s];
            pilotCost = pilotCost.plus(madeCost[s]);
            madeRuns += made[s];
            slotsSeen += slots[s];
        }
        for (SuiteScenario p : BreakingPoints.probes(req)) {
            cost = cost.plus(RunCost.planned(new TuneRuns.Job(p, p.scenario(), req.currentProfile()))
                    .times(BreakingPoints.SEEDS.length));
        }
        // where the pilot took no run from another, its share is exact and so is the estimate
        RunCost total = madeRuns == slotsSeen ? cost : cost.times(SCALE_PERCENT / 100.0);
        return new Estimate(total, pilotRuns, pilotCost, madeRuns, slotsSeen);
    }
}
