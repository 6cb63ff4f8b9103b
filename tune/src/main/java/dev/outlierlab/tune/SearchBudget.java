package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The work limit of {@code tune}: a search estimated at over {@link #MAX_SECONDS_A_THREAD} of CPU a thread is refused
 * unless the user allows it. The estimate is the search's runs counted by kind of work and weighed at each kind's
 * measured CPU cost ({@link RunCost}), never timed, so the same input always gets the same decision. First the bound
 * before running ({@link PlannedWork}): a search within the limit by it runs at once, one whose pilot alone would be
 * over half of it is refused there; any other starts with its pilot ({@link SearchPilot}), the search's own first
 * runs, whose estimate decides whether it goes on.
 */
public final class SearchBudget {
    /** CPU seconds a thread a search may be estimated at without asking. */
    public static final long MAX_SECONDS_A_THREAD = 300;

    /** What the decision is at a point of the search. */
    public enum Verdict {
        /** Within the limit by the bound before running: run it all. */
        RUN,
        /** Over the limit by the bound, but its pilot is cheap enough to ask: start, and decide after the pilot. */
        PILOT,
        /** Within the limit by the pilot's estimate: go on. */
        GO_ON,
        /** Over the limit. */
        REFUSED
    }

    /**
     * A decision with the estimate it was taken on.
     *
     * @param verdict         what to do
     * @param secondsAThread  the estimate in CPU seconds a thread
     * @param counted         what the estimate counts and how, in words (for the refusal's message)
     */
    public record Decision(Verdict verdict, double secondsAThread, String counted) {}

    private final TuneRequest req;

    public SearchBudget(TuneRequest req) {
        this.req = req;
    }

    /** The decision before any run, on the bound ({@link PlannedWork}). */
    public Decision beforeRunning() {
        RunCost cost = PlannedWork.cost(req);
        double bound = secondsAThread(cost);
        String counted = "its runs counted by kind of work, " + words(cost)
                + ", each at its measured CPU cost; runs that candidates whose caps admit the same hosts share counted "
                + "once, every other run and every failure counted as made";
        if (bound <= MAX_SECONDS_A_THREAD) {
            return new Decision(Verdict.RUN, bound, counted);
        }
        if (2 * secondsAThread(PlannedWork.pilotCost(req)) > MAX_SECONDS_A_THREAD) {
            return new Decision(Verdict.REFUSED, bound, counted);
        }
        return new Decision(Verdict.PILOT, bound, counted);
    }

    /** The decision once the pilot has run, on its estimate. */
    public Decision afterPilot(SearchPilot.Estimate e) {
        double seconds = secondsAThread(e.cost());
        String counted = "from its first " + count(e.pilotRuns()) + " runs, which made "
                + count(e.made()) + " of the " + count(e.slots()) + " candidates' runs they needed "
                + "(the others were runs already made) and counted only the failures their candidates did not spare by "
                + "ejecting, the rest at their share and work"
                + (e.made() < e.slots()
                        ? ", times " + SearchPilot.SCALE_PERCENT + " % (the first runs are the least often shared); "
                        : "; ")
                + words(e.cost()) + ", each at its measured CPU cost";
        return new Decision(seconds <= MAX_SECONDS_A_THREAD ? Verdict.GO_ON : Verdict.REFUSED, seconds, counted);
    }

    /** A cost's CPU seconds on each of the search's threads. */
    double secondsAThread(RunCost cost) {
        return cost.nanos() / 1e9 / req.threads();
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** The counts of a cost's dearest kinds, in words: e.g. {@code 1.2 billion failures reported one by one}. */
    private static String words(RunCost cost) {
        List<RunCost.Kind> kinds = new ArrayList<>(List.of(RunCost.Kind.values()));
        kinds.removeIf(k -> cost.count(k) * k.nanos < cost.nanos() / 20);
        kinds.sort((a, b) -> Double.compare(cost.count(b) * b.nanos, cost.count(a) * a.nanos));
        List<String> parts = new ArrayList<>();
        for (RunCost.Kind k : kinds) {
            parts.add(count((long) Math.min(Long.MAX_VALUE / 4, Math.ceil(cost.count(k)))) + " " + k.words);
        }
        return String.join(", ", parts);
    }
}
