package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;

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
 * while one misses it: five runs an edge, 15 in all when nothing moves.
 *
 * @param sharedOutagePercent the shallowest shared outage that makes it eject, or -1 when none up to 80 % does
 * @param noisePpm            the lowest noise that makes it eject, in parts per million, or -1 when none up to 12 %
 * @param caughtPercent       the smallest partial failure ejected within a minute on every seed, or -1 when not even
 *                            a dead host is
 * @param outageAddedPerThousand the failed requests per 1,000 beyond detection off in that shared outage (the mean of
 *                            the seeds), NaN when none ejects: what the callers pay when it breaks
 * @param noiseAddedPerThousand the same at that noise, NaN when none ejects
 */
public record BreakingPoints(
        int sharedOutagePercent,
        long noisePpm,
        int caughtPercent,
        double outageAddedPerThousand,
        double noiseAddedPerThousand) {
    /** Figures without the callers' cost (not measured). */
    public BreakingPoints(int sharedOutagePercent, long noisePpm, int caughtPercent) {
        this(sharedOutagePercent, noisePpm, caughtPercent, Double.NaN, Double.NaN);
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

    /**
     * Runs the probes with the written setting on every one of {@link #SEEDS}; the figures are the conservative ones.
     * Each of the three scales is walked from its mildest condition and stops at the first that answers it (an outage
     * or a noise that makes it eject on some seed, a partial failure caught on every seed): the conditions past it
     * cannot change the figure, so they are not run. The scales are walked side by side, a step of each in one batch.
     * {@code madeRuns} receives the number of runs made.
     */
    static BreakingPoints of(TuneRequest req, Target.Written w, RunExecutor runner, IntConsumer madeRuns) {
        List<SuiteScenario> probes = probes(req);
        int[] first = {0, DEPTHS.length, DEPTHS.length + NOISE_PPM.length, probes.size()};
        // per scale: the probe that answers it (-1 while unknown, -2 when none does)
        int[] found = {-1, -1, -1};
        Map<Integer, List<RunFigures>> ran = new HashMap<>();
        for (int step = 0; found[0] == -1 || found[1] == -1 || found[2] == -1; step++) {
            List<Integer> batch = new ArrayList<>();
            for (int k = 0; k < 3; k++) {
                if (found[k] == -1) {
                    if (first[k] + step < first[k + 1]) {
                        batch.add(first[k] + step);
                    } else {
                        found[k] = -2;
                    }
                }
            }
            List<TuneRuns.Job> jobs = new ArrayList<>();
            for (int i : batch) {
                SuiteScenario p = probes.get(i);
                for (long seed : SEEDS) {
                    jobs.add(new TuneRuns.Job(
                            p, p.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
                }
            }
            List<RunFigures> f = jobs.isEmpty() ? List.of() : runner.run(jobs, u -> {});
            madeRuns.accept(jobs.size());
            for (int b = 0; b < batch.size(); b++) {
                int i = batch.get(b);
                List<RunFigures> seeds = f.subList(b * SEEDS.length, (b + 1) * SEEDS.length);
                ran.put(i, seeds);
                boolean answers = i < first[2]
                        ? seeds.stream().anyMatch(r -> r.ejections() > 0)
                        : seeds.stream().allMatch(BreakingPoints::caught);
                int k = i < first[1] ? 0 : i < first[2] ? 1 : 2;
                if (answers) {
                    found[k] = i;
                }
            }
        }
        // each edge checked on more seeds: a step short of the outage or noise that ejects must not eject there either
        // (else the figure moves down), and the partial failure stated as caught must be caught there too (else up)
        Edge edge = new Edge(req, w, runner, probes, madeRuns);
        for (int k = 0; k < 2; k++) {
            int at = found[k] >= 0 ? found[k] : first[k + 1];
            while (at > first[k] && edge.ejects(at - 1)) {
                at--;
            }
            if (at < first[k + 1]) {
                found[k] = at;
                ran.computeIfAbsent(at, i -> edge.onSeeds(i, SEEDS));
            }
        }
        for (int at = found[2] >= 0 ? found[2] : first[3]; at < first[3]; at++) {
            found[2] = -2;
            List<RunFigures> seeds = ran.computeIfAbsent(at, i -> edge.onSeeds(i, SEEDS));
            if (seeds.stream().allMatch(BreakingPoints::caught) && edge.catches(at)) {
                found[2] = at;
                break;
            }
        }
        int sharedAt = found[0] >= 0 ? found[0] : -1;
        int noiseAt = found[1] >= 0 ? found[1] : -1;
        int shared = sharedAt < 0 ? -1 : DEPTHS[sharedAt];
        long noise = noiseAt < 0 ? -1 : NOISE_PPM[noiseAt - first[1]];
        int caught = found[2] < 0 ? -1 : PARTIAL[found[2] - first[2]];
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
        madeRuns.accept(offJobs.size());
        double outageAdded = sharedAt < 0 ? Double.NaN : added(ran.get(sharedAt), off, paid.size(), 0);
        double noiseAdded = noiseAt < 0 ? Double.NaN : added(ran.get(noiseAt), off, paid.size(), paid.size() - 1);
        return new BreakingPoints(shared, noise, caught, outageAdded, noiseAdded);
    }

    /** Runs of one probe on given seeds, counted. */
    private record Edge(
            TuneRequest req, Target.Written w, RunExecutor runner, List<SuiteScenario> probes, IntConsumer made) {
        List<RunFigures> onSeeds(int index, long[] seeds) {
            List<TuneRuns.Job> jobs = new ArrayList<>();
            SuiteScenario p = probes.get(index);
            for (long seed : seeds) {
                jobs.add(new TuneRuns.Job(
                        p, p.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
            }
            made.accept(jobs.size());
            return runner.run(jobs, u -> {});
        }

        boolean ejects(int index) {
            return onSeeds(index, EDGE_SEEDS).stream().anyMatch(r -> r.ejections() > 0);
        }

        boolean catches(int index) {
            return onSeeds(index, EDGE_SEEDS).stream().allMatch(BreakingPoints::caught);
        }
    }

    /** {@link #of(TuneRequest, Target.Written, RunExecutor, IntConsumer)} without the count of runs. */
    static BreakingPoints of(TuneRequest req, Target.Written w, RunExecutor runner) {
        return of(req, w, runner, n -> {});
    }

    /** Failed requests beyond detection off per 1,000, the mean over the seeds, of a probe's runs (seed after seed). */
    private static double added(List<RunFigures> mine, List<RunFigures> off, int paid, int at) {
        double sum = 0;
        for (int s = 0; s < SEEDS.length; s++) {
            RunFigures base = off.get(s * paid + at);
            sum += (mine.get(s).failed() - base.failed())
                    * 1000.0
                    / Math.max(1, mine.get(s).requests());
        }
        return sum / SEEDS.length;
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
