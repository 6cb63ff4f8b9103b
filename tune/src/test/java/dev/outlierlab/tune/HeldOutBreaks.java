package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;

/**
 * The "breaks when" figures of a recommendation checked against runs of those conditions on seeds they were not
 * measured on ({@link #SEEDS}; they come from seeds 1 to 3, their edges from 11 to 27). Each figure is stated with its
 * frequency ("a shared outage of 30 % makes it eject in 1 of 20 runs (at 20 %: in none of 20)"), so what is checked is
 * that frequency: every stated condition (the figure and the step short of it on each scale, or the top where none
 * ejects, or a dead host where none is caught) is run on the held-out seeds, and the held-out count must agree with
 * the stated one: a difference Fisher's exact test finds at the {@link #ALPHA} level (two-sided) is a disagreement.
 */
final class HeldOutBreaks {
    /** Seeds no "breaks when" figure is measured on. */
    static final long[] SEEDS = {4, 5, 6, 7, 8, 9, 10};

    /**
     * The level at which a held-out frequency differs from the stated one: 10 % over the matrix's comparisons (about
     * a hundred, Bonferroni), so that a matrix of true figures is flagged by chance less than once in ten.
     */
    static final double ALPHA = 0.001;

    private HeldOutBreaks() {}

    /**
     * A stated condition and its held-out runs.
     *
     * @param what the condition, e.g. {@code shared outage 30 %}
     * @param stated its runs and hits as the output states them
     * @param heldHits the held-out runs that ejected (or caught the failing host)
     * @param p Fisher's exact two-sided p-value of the two counts
     */
    record Compared(String what, ProbeTally stated, int heldHits, double p) {
        boolean agrees() {
            return p >= ALPHA;
        }

        String words() {
            return String.format(
                    Locale.ROOT,
                    "%s: stated %d of %d, held out %d of %d (p %.3f)",
                    what,
                    stated.hits(),
                    stated.runs(),
                    heldHits,
                    SEEDS.length,
                    p);
        }
    }

    /** Every stated condition of the recommendation's "breaks when" line against its runs on {@link #SEEDS}. */
    static List<Compared> compare(TuneRequest req, TuneResult r, TuneRuns runner) {
        BreakingPoints b = r.breaks();
        DefaultSuite suite = new DefaultSuite(req.hosts(), req.rps(), req.clients(), 0, req.healthChecks());
        List<SuiteScenario> probes = new ArrayList<>();
        List<ProbeTally> stated = new ArrayList<>();
        List<String> what = new ArrayList<>();
        stated(
                b.outageRuns(),
                b.sharedOutagePercent(),
                80,
                l -> suite.sharedOutage((int) l),
                "shared outage ",
                probes,
                stated,
                what);
        stated(b.noiseRuns(), b.noisePpm(), 120_000, suite::noise, "noise ppm ", probes, stated, what);
        stated(
                b.partialRuns(),
                b.caughtPercent(),
                100,
                l -> suite.partial((int) l),
                "partial failure ",
                probes,
                stated,
                what);
        Target.Written w = r.recommended().written();
        List<TuneRuns.Job> jobs = new ArrayList<>();
        for (SuiteScenario s : probes) {
            for (long seed : SEEDS) {
                jobs.add(new TuneRuns.Job(
                        s, s.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
            }
        }
        List<RunFigures> f = runner.run(jobs, u -> {});
        List<Compared> out = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            boolean partial = probes.get(i).expect() == Expectation.EJECT;
            int hits = 0;
            for (int s = 0; s < SEEDS.length; s++) {
                RunFigures run = f.get(i * SEEDS.length + s);
                if (partial ? BreakingPoints.caught(run) : run.ejections() > 0) {
                    hits++;
                }
            }
            ProbeTally t = stated.get(i);
            out.add(new Compared(what.get(i), t, hits, fisher(t.hits(), t.runs(), hits, SEEDS.length)));
        }
        return out;
    }

    /** The stated conditions that held-out runs contradict, each a line naming the cell; empty when none. */
    static List<String> disagreements(String label, List<Compared> compared) {
        List<String> out = new ArrayList<>();
        for (Compared c : compared) {
            if (!c.agrees()) {
                out.add(label + " breaks-when: stated \"" + c.what() + " "
                        + c.stated().frequency() + "\", but on seeds " + SEEDS[0] + " to " + SEEDS[SEEDS.length - 1]
                        + " in " + c.heldHits() + " of " + SEEDS.length);
            }
        }
        return out;
    }

    /**
     * A scale's stated conditions: its figure (the top, or a dead host, when there is none) and the step short of it,
     * each with the runs the output states.
     */
    private static void stated(
            List<ProbeTally> tallies,
            long figure,
            long none,
            LongFunction<SuiteScenario> probe,
            String words,
            List<SuiteScenario> probes,
            List<ProbeTally> stated,
            List<String> what) {
        long at = figure < 0 ? none : figure;
        ProbeTally below = null;
        for (ProbeTally t : tallies) {
            if (t.level() < at) {
                below = t;
            }
        }
        for (ProbeTally t : new ProbeTally[] {below, ProbeTally.at(tallies, at)}) {
            if (t != null) {
                probes.add(probe.apply(t.level()));
                stated.add(t);
                what.add(words + t.level());
            }
        }
    }

    /**
     * Fisher's exact test, two-sided, of {@code a} of {@code n} against {@code b} of {@code m}: the probability, with
     * the margins fixed, of a table at most as likely as this one.
     */
    static double fisher(int a, int n, int b, int m) {
        int hits = a + b;
        double observed = hypergeometric(a, n, m, hits);
        double p = 0;
        for (int x = Math.max(0, hits - m); x <= Math.min(n, hits); x++) {
            double q = hypergeometric(x, n, m, hits);
            if (q <= observed * (1 + 1e-9)) {
                p += q;
            }
        }
        return Math.min(1, p);
    }

    /** The chance that {@code x} of {@code hits} fall in the first group of {@code n}, the second having {@code m}. */
    private static double hypergeometric(int x, int n, int m, int hits) {
        return Math.exp(logChoose(n, x) + logChoose(m, hits - x) - logChoose(n + m, hits));
    }

    private static double logChoose(int n, int k) {
        double s = 0;
        for (int i = 1; i <= k; i++) {
            s += Math.log(n - k + i) - Math.log(i);
        }
        return s;
    }
}
