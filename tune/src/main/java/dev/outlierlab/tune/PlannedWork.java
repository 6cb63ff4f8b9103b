package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The work of a search's runs before it starts, for the work limit of {@code tune}: the plan of {@link Tuner} (detection
 * off on every seed, the correct action where it is another run, every candidate on the screening seeds, the finalists
 * on the others, the breaking points' probes), each run on the path it takes ({@link TuneRuns#units}), with the runs
 * that are the same by the same-cap rule ({@link RunSharing#runKey}: candidates whose caps admit the same counts of a
 * scenario's hosts) counted once, as the search makes them once. The other runs the search shares depend on what the
 * runs find, so they are counted as made: the estimate is an upper bound of the search's runs (PlannedWorkTest), but
 * for the breaking points' re-runs of their edges on {@link BreakingPoints#EDGE_SEEDS} (a few probes on 17 more seeds;
 * counting every probe there, as a strict bound would, doubles the probes' share and refuses 200 hosts at 20,000 rps,
 * whose search is a fraction of its estimate).
 * {@link Tuner#plannedUnits} counts every run, shared or not, as the progress of a search does.
 */
public final class PlannedWork {
    private PlannedWork() {}

    /** The work of the runs the search simulates, at most. */
    public static RunCost cost(TuneRequest req) {
        List<Target.Written> written = written(req);
        RunSharing sharing = new RunSharing(written, req.suite(), req.envoyVersion());
        long candidates = written.size();
        long screened = Tuner.screened(req, candidates);
        long finalists = Math.min(candidates, Tuner.FINALISTS + Tuner.FRONT_ROWS + 1L);
        RunCost cost = RunCost.NONE;
        for (SuiteScenario s : req.suite()) {
            TuneRuns.Job off = s.offJob(req, 1);
            TuneRuns.Job correct = s.correctJob(req, 1);
            RunCost baseline = correct.equals(off)
                    ? RunCost.planned(off)
                    : RunCost.planned(off).plus(RunCost.planned(correct));
            long distinct =
                    distinctRuns(sharing, written.size(), s.scenario().cluster().size());
            long runs = distinct
                    + Math.min(screened, distinct) * (req.screenSeeds() - 1L)
                    + Math.min(finalists, distinct) * (req.seeds() - req.screenSeeds());
            cost = cost.plus(baseline.times(req.seeds()))
                    .plus(RunCost.planned(new TuneRuns.Job(s, s.scenario(), req.currentProfile()))
                            .times(runs));
        }
        for (SuiteScenario p : BreakingPoints.probes(req)) {
            cost = cost.plus(RunCost.planned(new TuneRuns.Job(p, p.scenario(), req.currentProfile()))
                    .times(BreakingPoints.SEEDS.length));
        }
        return cost;
    }

    /**
     * The work of a search's pilot ({@link SearchPilot}) at most: detection off and the correct action on the first
     * seed, and every candidate of the search's first waves through the pilot's share on it, each run counted as made.
     */
    public static RunCost pilotCost(TuneRequest req) {
        List<Target.Written> written = written(req);
        RunSharing sharing = new RunSharing(written, req.suite(), req.envoyVersion());
        List<Integer> all = new ArrayList<>();
        for (int c = 0; c < written.size(); c++) {
            all.add(c);
        }
        long through = 0;
        for (List<Integer> wave : sharing.waves(all)) {
            through += wave.size();
            if (through * SearchPilot.SHARE >= written.size()) {
                break;
            }
        }
        RunCost cost = RunCost.NONE;
        for (SuiteScenario s : req.suite()) {
            TuneRuns.Job off = s.offJob(req, 1);
            TuneRuns.Job correct = s.correctJob(req, 1);
            cost = cost.plus(RunCost.planned(off));
            if (!correct.equals(off)) {
                cost = cost.plus(RunCost.planned(correct));
            }
            cost = cost.plus(RunCost.planned(new TuneRuns.Job(s, s.scenario(), req.currentProfile()))
                    .times(through));
        }
        return cost;
    }

    /** The candidates' distinct runs of a scenario with {@code hosts} hosts by the same-cap rule. */
    static long distinctRuns(RunSharing sharing, int candidates, int hosts) {
        Set<String> keys = new HashSet<>();
        long unkeyed = 0;
        for (int c = 0; c < candidates; c++) {
            String key = sharing.runKey(c, hosts);
            if (key == null) {
                unkeyed++;
            } else {
                keys.add(key);
            }
        }
        return keys.size() + unkeyed;
    }

    /** The current setting and every candidate as the search writes them (what its runs simulate). */
    private static List<Target.Written> written(TuneRequest req) {
        List<Target.Written> out = new ArrayList<>();
        out.add(new Target.Written("", req.current(), req.currentPanicPercent(), req.currentProfile()));
        for (Setting s : SearchSpace.candidates(req)) {
            out.add(req.write(s));
        }
        return out;
    }
}
