package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;

/**
 * The "breaks when" figures of a recommendation checked against runs of those conditions on a seed the figures were
 * not measured on (7; they come from seeds 1, 2 and 3, their edges checked on 11 to 15), in the direction the line promises: the step short of the
 * stated shared outage does not make it eject, nor the noise level below the stated one, and the stated partial
 * failure is caught within a minute. Where the outage or noise figure says "none up to the top", the top does not
 * eject. A held-out run on the safe side (the stated outage not ejecting, the step short of the stated partial
 * failure caught) is what the least favourable of several seeds allows, and is not counted.
 */
final class HeldOutBreaks {
    static final long SEED = 7;

    private HeldOutBreaks() {}

    /** The stated figures the runs contradict on the unsafe side, each a line naming the cell; empty when none. */
    static List<String> disagreements(String label, TuneRequest req, TuneResult r, TuneRuns runner) {
        BreakingPoints b = r.breaks();
        DefaultSuite suite = new DefaultSuite(req.hosts(), req.rps(), req.clients(), 0, req.healthChecks());
        List<SuiteScenario> probes = new ArrayList<>();
        List<Boolean> ejects = new ArrayList<>();
        List<String> what = new ArrayList<>();
        int[] depths = BreakingPoints.DEPTHS;
        int d = index(depths, b.sharedOutagePercent());
        if (d < 0) {
            add(probes, ejects, what, suite.sharedOutage(depths[depths.length - 1]), false, "no shared outage ejects");
        } else {
            add(probes, ejects, what, suite.sharedOutage(depths[d]), true, "shared outage " + depths[d] + " % ejects");
            if (d > 0) {
                add(probes, ejects, what, suite.sharedOutage(depths[d - 1]), false, depths[d - 1] + " % does not");
            }
        }
        long[] noise = BreakingPoints.NOISE_PPM;
        int n = index(noise, b.noisePpm());
        if (n < 0) {
            add(probes, ejects, what, suite.noise(noise[noise.length - 1]), false, "no noise ejects");
        } else {
            add(probes, ejects, what, suite.noise(noise[n]), true, "noise " + noise[n] + " ppm ejects");
            if (n > 0) {
                add(probes, ejects, what, suite.noise(noise[n - 1]), false, noise[n - 1] + " ppm does not");
            }
        }
        int[] partial = BreakingPoints.PARTIAL;
        int p = index(partial, b.caughtPercent());
        if (p < 0) {
            add(probes, ejects, what, suite.partial(100), false, "no failing host is caught");
        } else {
            add(probes, ejects, what, suite.partial(partial[p]), true, partial[p] + " % caught within a minute");
            if (p > 0) {
                add(probes, ejects, what, suite.partial(partial[p - 1]), false, partial[p - 1] + " % is not");
            }
        }
        Target.Written w = r.recommended().written();
        List<TuneRuns.Job> jobs = new ArrayList<>();
        for (SuiteScenario s : probes) {
            jobs.add(new TuneRuns.Job(
                    s, s.with(SEED, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
        }
        List<RunFigures> f = runner.run(jobs, u -> {});
        List<String> out = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            boolean partialProbe = probes.get(i).expect() == Expectation.EJECT;
            boolean did =
                    partialProbe ? BreakingPoints.caught(f.get(i)) : f.get(i).ejections() > 0;
            boolean surprise = partialProbe ? ejects.get(i) && !did : did && !ejects.get(i);
            if (surprise) {
                out.add(label + " breaks-when: stated \"" + what.get(i) + "\", but on seed " + SEED
                        + (did ? " it does" : " it does not"));
            }
        }
        return out;
    }

    private static void add(
            List<SuiteScenario> probes,
            List<Boolean> ejects,
            List<String> what,
            SuiteScenario s,
            boolean expected,
            String words) {
        probes.add(s);
        ejects.add(expected);
        what.add(words);
    }

    private static int index(int[] values, int v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        return -1;
    }

    private static int index(long[] values, long v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
