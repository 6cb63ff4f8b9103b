package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Where a setting stops doing what it should, found by runs of the same simulation as the suite on seeds 1, 2 and 3
 * (the cluster's hosts, rate, callers and health check), each figure's edge checked on seeds 11 to 15 as well: the
 * shallowest shared outage (every host failing 10 % to 80 %) that makes it eject, the lowest noise on every host (0.5 % to 12 % of requests, all the time) at which it
 * ejects a healthy host at all in a run of 300 s (one such ejection is 288 a day), and the smallest partial failure of
 * one host (5 % to 100 %) that it ejects within a minute of the fault's start.
 *
 * <p>Each figure is the conservative one over the seeds, so that no seed surprises a reader of the line: the outage
 * and the noise are the lowest at which it ejects on any seed (on some seeds it may need a step more, never less),
 * and the partial failure is the smallest that every seed catches within a minute (on some seeds a step less is
 * caught too). A worst case of three seeds alone was a step optimistic on a fourth now and then (a 30 % outage
 * ejecting where seeds 1 to 3 first ejected at 40 %), so the step short of the outage and the noise is run on five more
 * seeds too, moving the figure down while one ejects there, and the stated partial failure likewise, moving it up
 * while one misses it: five runs an edge, 15 in all when nothing moves (a 1,800-run search's 1 %).
 *
 * @param sharedOutagePercent the shallowest shared outage that makes it eject, or -1 when none up to 80 % does
 * @param noisePpm            the lowest noise that makes it eject, in parts per million, or -1 when none up to 12 %
 * @param caughtPercent       the smallest partial failure ejected within a minute on every seed, or -1 when not even
 *                            a dead host is
 * @param outageAddedPerThousand the failed requests per 1,000 beyond detection off in that shared outage (the mean of
 *                            the seeds), NaN when none ejects: what the callers pay when it breaks
 * @param noiseAddedPerThousand the same at that noise, NaN when none ejects
 * @param edgeRuns            the runs the edges took on {@link #EDGE_SEEDS}
 */
public record BreakingPoints(
        int sharedOutagePercent,
        long noisePpm,
        int caughtPercent,
        double outageAddedPerThousand,
        double noiseAddedPerThousand,
        int edgeRuns) {
    /** Figures without the callers' cost (not measured). */
    public BreakingPoints(int sharedOutagePercent, long noisePpm, int caughtPercent) {
        this(sharedOutagePercent, noisePpm, caughtPercent, Double.NaN, Double.NaN, 0);
    }

    static final int[] DEPTHS = {10, 20, 30, 40, 50, 60, 70, 80};
    static final long[] NOISE_PPM = {5_000, 10_000, 20_000, 30_000, 50_000, 80_000, 120_000};
    static final int[] PARTIAL = {5, 10, 20, 30, 40, 50, 60, 80, 100};
    /** The seeds every condition is run on. */
    static final long[] SEEDS = {1, 2, 3};
    /** The seeds each figure's edge is checked on besides: the step short of it, or the failure it states as caught. */
    static final long[] EDGE_SEEDS = {11, 12, 13, 14, 15};
    /** Within this long of the fault's start an ejection counts as caught. */
    static final long CAUGHT_WITHIN_NANOS = 60_000_000_000L;

    /** The probes as suite scenarios, each run on every one of {@link #SEEDS}: outages, noise, partial failures. */
    static List<SuiteScenario> probes(TuneRequest req) {
        DefaultSuite suite = new DefaultSuite(req.hosts(), req.rps(), req.clients(), 0, req.healthChecks());
        List<SuiteScenario> out = new ArrayList<>();
        for (int d : DEPTHS) {
            out.add(suite.sharedOutage(d));
        }
        for (long ppm : NOISE_PPM) {
            out.add(suite.noise(ppm));
        }
        for (int p : PARTIAL) {
            out.add(suite.partial(p));
        }
        return out;
    }

    /** Runs the probes with the written setting on every one of {@link #SEEDS}; the figures are the conservative ones. */
    static BreakingPoints of(TuneRequest req, Target.Written w, RunExecutor runner) {
        List<SuiteScenario> probes = probes(req);
        List<TuneRuns.Job> jobs = new ArrayList<>();
        for (long seed : SEEDS) {
            for (SuiteScenario p : probes) {
                jobs.add(new TuneRuns.Job(
                        p, p.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
            }
        }
        List<RunFigures> f = runner.run(jobs, u -> {});
        int n = probes.size();
        int shared = -1;
        int sharedAt = -1;
        for (int i = 0; i < DEPTHS.length && shared < 0; i++) {
            if (onAny(f, n, i, r -> r.ejections() > 0)) {
                shared = DEPTHS[i];
                sharedAt = i;
            }
        }
        long noise = -1;
        int noiseAt = -1;
        for (int i = 0; i < NOISE_PPM.length && noise < 0; i++) {
            if (onAny(f, n, DEPTHS.length + i, r -> r.ejections() > 0)) {
                noise = NOISE_PPM[i];
                noiseAt = DEPTHS.length + i;
            }
        }
        // each edge checked on two more seeds: a step short of the outage or noise that ejects must not eject there
        // either
        // (else the figure moves down), and the partial failure stated as caught must be caught there too (else up)
        Edge edge = new Edge(req, w, runner, probes);
        int d = sharedAt < 0 ? DEPTHS.length : sharedAt;
        while (d > 0 && edge.ejects(d - 1)) {
            d--;
        }
        if (d < DEPTHS.length) {
            sharedAt = d;
            shared = DEPTHS[d];
        }
        int z = noiseAt < 0 ? NOISE_PPM.length : noiseAt - DEPTHS.length;
        while (z > 0 && edge.ejects(DEPTHS.length + z - 1)) {
            z--;
        }
        if (z < NOISE_PPM.length) {
            noiseAt = DEPTHS.length + z;
            noise = NOISE_PPM[z];
        }
        // what the callers pay where it breaks: detection off on the same probes and seeds (two probes at most)
        List<Integer> paid = new ArrayList<>();
        if (sharedAt >= 0) {
            paid.add(sharedAt);
        }
        if (noiseAt >= 0) {
            paid.add(noiseAt);
        }
        List<TuneRuns.Job> offJobs = new ArrayList<>();
        for (long seed : SEEDS) {
            for (int i : paid) {
                offJobs.add(probes.get(i).offJob(req, seed));
            }
        }
        List<RunFigures> off = offJobs.isEmpty() ? List.of() : runner.run(offJobs, u -> {});
        double outageAdded = sharedAt < 0 ? Double.NaN : added(f, n, sharedAt, off, paid.size(), 0);
        double noiseAdded = noiseAt < 0 ? Double.NaN : added(f, n, noiseAt, off, paid.size(), paid.size() - 1);
        int caught = -1;
        for (int i = 0; i < PARTIAL.length && caught < 0; i++) {
            if (!onAny(f, n, DEPTHS.length + NOISE_PPM.length + i, r -> !caught(r))) {
                caught = PARTIAL[i];
            }
        }
        int first = DEPTHS.length + NOISE_PPM.length;
        for (int i = caught < 0 ? PARTIAL.length : Arrays.binarySearch(PARTIAL, caught); i < PARTIAL.length; i++) {
            if (!onAny(f, n, first + i, r -> !caught(r)) && edge.catches(first + i)) {
                caught = PARTIAL[i];
                break;
            }
            caught = -1;
        }
        return new BreakingPoints(shared, noise, caught, outageAdded, noiseAdded, edge.runs[0]);
    }

    /** The runs of the probes at each figure's edge on {@link #EDGE_SEEDS}. */
    private record Edge(TuneRequest req, Target.Written w, RunExecutor runner, List<SuiteScenario> probes, int[] runs) {
        Edge(TuneRequest req, Target.Written w, RunExecutor runner, List<SuiteScenario> probes) {
            this(req, w, runner, probes, new int[1]);
        }

        private List<RunFigures> run(int index) {
            runs[0] += EDGE_SEEDS.length;
            List<TuneRuns.Job> jobs = new ArrayList<>();
            SuiteScenario p = probes.get(index);
            for (long seed : EDGE_SEEDS) {
                jobs.add(new TuneRuns.Job(
                        p, p.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
            }
            return runner.run(jobs, u -> {});
        }

        boolean ejects(int index) {
            return run(index).stream().anyMatch(r -> r.ejections() > 0);
        }

        boolean catches(int index) {
            return run(index).stream().allMatch(BreakingPoints::caught);
        }
    }

    /**
     * The runs these figures took besides the probes on {@link #SEEDS}: detection off's (on every seed, where an outage
     * or the noise makes it eject) and the edges' on {@link #EDGE_SEEDS}.
     */
    int offRuns() {
        return ((Double.isNaN(outageAddedPerThousand) ? 0 : 1) + (Double.isNaN(noiseAddedPerThousand) ? 0 : 1))
                        * SEEDS.length
                + edgeRuns;
    }

    /** Failed requests beyond detection off per 1,000, the mean over the seeds, of the probe at {@code index}. */
    private static double added(List<RunFigures> f, int n, int index, List<RunFigures> off, int paid, int at) {
        double sum = 0;
        for (int s = 0; s < SEEDS.length; s++) {
            RunFigures mine = f.get(s * n + index);
            RunFigures base = off.get(s * paid + at);
            sum += (mine.failed() - base.failed()) * 1000.0 / Math.max(1, mine.requests());
        }
        return sum / SEEDS.length;
    }

    /** Whether the probe at {@code index} shows {@code what} on any seed (the runs are seed after seed, n each). */
    private static boolean onAny(List<RunFigures> f, int n, int index, Predicate<RunFigures> what) {
        for (int s = 0; s < SEEDS.length; s++) {
            if (what.test(f.get(s * n + index))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the failing host was ejected within a minute of the fault's start. */
    static boolean caught(RunFigures r) {
        return r.detectNanos() >= 0 && r.detectNanos() <= CAUGHT_WITHIN_NANOS;
    }

    /** What the callers pay there, in words: {@code  (and fails 80.0 more requests per 1,000 than detection off)}. */
    private static String paid(double perThousand) {
        if (Double.isNaN(perThousand) || perThousand <= Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND) {
            return "";
        }
        return " (and fails " + Evaluation.perThousand(perThousand) + " more requests per 1,000 than detection off)";
    }

    /** The "breaks when" line. */
    public String words() {
        String a = sharedOutagePercent < 0
                ? "no shared outage up to 80 % makes it eject"
                : "a shared outage of " + sharedOutagePercent
                        + " % of every host's requests makes it eject healthy hosts" + paid(outageAddedPerThousand);
        String b = noisePpm < 0
                ? "no noise up to 12 % on every host makes it eject in 300 s"
                : "with every host failing " + String.format(Locale.ROOT, "%.1f", noisePpm / 10_000.0) + " % of its "
                        + "requests (noise) it ejects within 300 s, so false ejections pass one a day"
                        + paid(noiseAddedPerThousand);
        String c = caughtPercent < 0
                ? "within a minute it does not catch even a dead host on every seed"
                : caughtPercent == 100
                        ? "within a minute it catches only a host failing every request"
                        : "within a minute it catches one host failing " + caughtPercent + " % of its requests or more "
                                + "(not less)";
        return "Breaks when: " + a + "; " + b + "; " + c + " (worst of seeds 1 to 3, each edge on 11 to 15 too; "
                + DEPTHS[0] + " to " + DEPTHS[DEPTHS.length - 1]
                + " % outages, 0.5 to 12 % noise, 5 to 100 % partial failures).";
    }
}
