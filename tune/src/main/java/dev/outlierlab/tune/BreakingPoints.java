package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntConsumer;
import java.util.function.IntToLongFunction;
import java.util.stream.LongStream;

/**
 * Where a setting stops doing what it should, found by runs of the same simulation as the suite (the cluster's hosts,
 * rate, callers and health check): the shallowest shared outage (every host failing 10 % to 80 %) that makes it eject,
 * the lowest noise on every host (0.5 % to 12 % of requests, all the time) at which it ejects a healthy host at all in a
 * run of 300 s (one such ejection is 288 a day), and the smallest partial failure of one host (5 % to 100 %) that it
 * ejects within a minute of the fault's start. Each figure comes with how often: the runs made of it and of the step
 * short of it, and in how many of them it ejected (or caught the failing host).
 *
 * <p>Each scale is walked on seeds 1, 2 and 3 from its mildest condition to the first that answers it: an outage or a
 * noise that makes it eject on some seed, a partial failure caught on every seed. A rare event hides from three seeds
 * (the gateway's hard trip at 10 failures in a row ejects in a 30 % outage about once in 20 runs), so each edge runs
 * on {@link #EDGE_SEEDS} too, 20 runs in all: the step short of the outage and of the noise, the figure moving down
 * while one of them ejects there, and the partial failure stated as caught, moving up while one misses it. So an
 * outage or noise figure is the shallowest at which any of its runs ejects, the step short of it ejecting in none of
 * 20; a partial failure figure is caught in all of its 20 runs. The frequencies say how rare the edge is.
 *
 * @param sharedOutagePercent    the shallowest shared outage that makes it eject, or -1 when none up to 80 % does
 * @param noisePpm               the lowest noise that makes it eject, in parts per million, or -1 when none up to 12 %
 * @param caughtPercent          the smallest partial failure ejected within a minute in every run, or -1 when not
 *                               even a dead host is
 * @param outageAddedPerThousand the failed requests per 1,000 beyond detection off in that shared outage, the mean of
 *                               up to three of the runs that ejected there (each against detection off on its seed),
 *                               NaN when none ejects: what the callers pay when it breaks
 * @param noiseAddedPerThousand  the same at that noise, NaN when none ejects
 * @param outageRuns             every shared outage run, mildest first, with the runs that ejected
 * @param noiseRuns              every noise level run, mildest first, with the runs that ejected
 * @param partialRuns            every partial failure run, mildest first, with the runs that caught it within a minute
 */
public record BreakingPoints(
        int sharedOutagePercent,
        long noisePpm,
        int caughtPercent,
        double outageAddedPerThousand,
        double noiseAddedPerThousand,
        List<ProbeTally> outageRuns,
        List<ProbeTally> noiseRuns,
        List<ProbeTally> partialRuns) {
    public BreakingPoints {
        outageRuns = List.copyOf(outageRuns);
        noiseRuns = List.copyOf(noiseRuns);
        partialRuns = List.copyOf(partialRuns);
    }

    static final int[] DEPTHS = {10, 20, 30, 40, 50, 60, 70, 80};
    static final long[] NOISE_PPM = {5_000, 10_000, 20_000, 30_000, 50_000, 80_000, 120_000};
    static final int[] PARTIAL = {5, 10, 20, 30, 40, 50, 60, 80, 100};
    /** The seeds every condition walked is run on. */
    static final long[] SEEDS = {1, 2, 3};
    /** The seeds each figure's edge is run on besides: the step short of it, or the failure it states as caught. */
    static final long[] EDGE_SEEDS = LongStream.rangeClosed(11, 27).toArray();
    /** Within this long of the fault's start an ejection counts as caught. */
    static final long CAUGHT_WITHIN_NANOS = 60_000_000_000L;
    /** The most runs that ejected at a figure whose cost is measured against detection off. */
    private static final int PAID_RUNS = 3;

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
     * Runs the probes with the written setting. Each of the three scales is walked on {@link #SEEDS} from its mildest
     * condition and stops at the first that answers it (an outage or a noise that makes it eject on some seed, a
     * partial failure caught on every seed): the conditions past it cannot change the figure, so they are not run.
     * The scales are walked side by side, a step of each in one batch; then each edge runs on {@link #EDGE_SEEDS}.
     * {@code madeRuns} receives the number of runs made.
     */
    static BreakingPoints of(TuneRequest req, Target.Written w, RunExecutor runner, IntConsumer madeRuns) {
        List<SuiteScenario> probes = probes(req);
        int[] first = {0, DEPTHS.length, DEPTHS.length + NOISE_PPM.length, probes.size()};
        // per scale: the probe that answers it (-1 while unknown, -2 when none does)
        int[] found = {-1, -1, -1};
        Runs runs = new Runs(req, w, runner, probes, madeRuns);
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
            runs.walk(batch);
            for (int i : batch) {
                List<RunFigures> seeds = runs.base.get(i);
                boolean answers = i < first[2]
                        ? seeds.stream().anyMatch(r -> r.ejections() > 0)
                        : seeds.stream().allMatch(BreakingPoints::caught);
                if (answers) {
                    found[i < first[1] ? 0 : 1 + (i < first[2] ? 0 : 1)] = i;
                }
            }
        }
        // each edge on more seeds: a step short of the outage or noise that ejects must eject in none of them (else the
        // figure moves down), and the partial failure stated as caught must be caught in all of them (else up)
        for (int k = 0; k < 2; k++) {
            int at = found[k] >= 0 ? found[k] : first[k + 1];
            while (at > first[k] && runs.edge(at - 1).stream().anyMatch(r -> r.ejections() > 0)) {
                at--;
            }
            found[k] = at < first[k + 1] ? at : -2;
        }
        for (int at = found[2] >= 0 ? found[2] : first[3]; at < first[3]; at++) {
            found[2] = -2;
            runs.walk(runs.base.containsKey(at) ? List.of() : List.of(at));
            if (runs.base.get(at).stream().allMatch(BreakingPoints::caught)
                    && runs.edge(at).stream().allMatch(BreakingPoints::caught)) {
                found[2] = at;
                break;
            }
        }
        int shared = found[0] < 0 ? -1 : DEPTHS[found[0]];
        long noise = found[1] < 0 ? -1 : NOISE_PPM[found[1] - first[1]];
        int caught = found[2] < 0 ? -1 : PARTIAL[found[2] - first[2]];
        double[] paid = runs.paid(found[0], found[1]);
        return new BreakingPoints(
                shared,
                noise,
                caught,
                paid[0],
                paid[1],
                runs.tallies(first[0], first[1], i -> DEPTHS[i], false),
                runs.tallies(first[1], first[2], i -> NOISE_PPM[i], false),
                runs.tallies(first[2], first[3], i -> PARTIAL[i], true));
    }

    /** The runs of the probes made so far, on {@link #SEEDS} and on {@link #EDGE_SEEDS}, counted as they are made. */
    private static final class Runs {
        final TuneRequest req;
        final Target.Written w;
        final RunExecutor runner;
        final List<SuiteScenario> probes;
        final IntConsumer made;
        final Map<Integer, List<RunFigures>> base = new HashMap<>();
        final Map<Integer, List<RunFigures>> edges = new HashMap<>();

        Runs(TuneRequest req, Target.Written w, RunExecutor runner, List<SuiteScenario> probes, IntConsumer made) {
            this.req = req;
            this.w = w;
            this.runner = runner;
            this.probes = probes;
            this.made = made;
        }

        /** Runs these probes on {@link #SEEDS}, in one batch. */
        void walk(List<Integer> batch) {
            List<TuneRuns.Job> jobs = new ArrayList<>();
            for (int i : batch) {
                jobs.addAll(jobs(i, SEEDS));
            }
            if (jobs.isEmpty()) {
                return;
            }
            List<RunFigures> f = runner.run(jobs, u -> {});
            made.accept(jobs.size());
            for (int b = 0; b < batch.size(); b++) {
                base.put(batch.get(b), f.subList(b * SEEDS.length, (b + 1) * SEEDS.length));
            }
        }

        /** The runs of a probe on {@link #EDGE_SEEDS}, made once. */
        List<RunFigures> edge(int index) {
            return edges.computeIfAbsent(index, i -> {
                List<TuneRuns.Job> jobs = jobs(i, EDGE_SEEDS);
                made.accept(jobs.size());
                return runner.run(jobs, u -> {});
            });
        }

        private List<TuneRuns.Job> jobs(int index, long[] seeds) {
            List<TuneRuns.Job> jobs = new ArrayList<>();
            SuiteScenario p = probes.get(index);
            for (long seed : seeds) {
                jobs.add(new TuneRuns.Job(
                        p, p.with(seed, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
            }
            return jobs;
        }

        /** Each probe of a scale that was run, mildest first, with its runs on every seed and those that broke. */
        List<ProbeTally> tallies(int from, int to, IntToLongFunction level, boolean partial) {
            List<ProbeTally> out = new ArrayList<>();
            for (int i = from; i < to; i++) {
                if (!base.containsKey(i)) {
                    continue;
                }
                List<RunFigures> all = new ArrayList<>(base.get(i));
                all.addAll(edges.getOrDefault(i, List.of()));
                int hits = (int) all.stream()
                        .filter(r -> partial ? caught(r) : r.ejections() > 0)
                        .count();
                out.add(new ProbeTally(level.applyAsLong(i - from), all.size(), hits));
            }
            return out;
        }

        /**
         * What the callers pay where it breaks, per 1,000 requests beyond detection off: at the outage and at the
         * noise figure (probe indexes, negative for none), the mean over up to {@link #PAID_RUNS} of the runs that
         * ejected there (seeds 1 to 3 first), each against detection off on the same seed; NaN where none ejects.
         */
        double[] paid(int outageAt, int noiseAt) {
            List<TuneRuns.Job> offJobs = new ArrayList<>();
            List<RunFigures> mine = new ArrayList<>();
            int[] count = new int[2];
            int[] at = {outageAt, noiseAt};
            for (int k = 0; k < 2; k++) {
                if (at[k] < 0) {
                    continue;
                }
                List<RunFigures> all = new ArrayList<>(base.get(at[k]));
                all.addAll(edges.getOrDefault(at[k], List.of()));
                for (int s = 0; s < all.size() && count[k] < PAID_RUNS; s++) {
                    if (all.get(s).ejections() > 0) {
                        long seed = s < SEEDS.length ? SEEDS[s] : EDGE_SEEDS[s - SEEDS.length];
                        offJobs.add(probes.get(at[k]).offJob(req, seed));
                        mine.add(all.get(s));
                        count[k]++;
                    }
                }
            }
            List<RunFigures> off = offJobs.isEmpty() ? List.of() : runner.run(offJobs, u -> {});
            made.accept(offJobs.size());
            double[] out = {Double.NaN, Double.NaN};
            int j = 0;
            for (int k = 0; k < 2; k++) {
                double sum = 0;
                for (int n = 0; n < count[k]; n++, j++) {
                    sum += (mine.get(j).failed() - off.get(j).failed())
                            * 1000.0
                            / Math.max(1, mine.get(j).requests());
                }
                if (count[k] > 0) {
                    out[k] = sum / count[k];
                }
            }
            return out;
        }
    }

    /** {@link #of(TuneRequest, Target.Written, RunExecutor, IntConsumer)} without the count of runs. */
    static BreakingPoints of(TuneRequest req, Target.Written w, RunExecutor runner) {
        return of(req, w, runner, n -> {});
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

    /** The step milder than {@code level} on a scale, with its runs in words, e.g. {@code  (at 20 %: in none of 20)}. */
    private static String shortOf(List<ProbeTally> tallies, long level, String unit) {
        ProbeTally below = null;
        for (ProbeTally t : tallies) {
            if (t.level() < level) {
                below = t;
            }
        }
        return below == null
                ? ""
                : " (at " + unit(below.level(), unit) + ": " + below.frequency().replace(" runs", "") + ")";
    }

    private static String unit(long level, String unit) {
        return unit.equals("ppm") ? String.format(Locale.ROOT, "%.1f %%", level / 10_000.0) : level + " %";
    }

    /** A figure's own runs in words, e.g. {@code in 1 of 20 runs}; empty when the condition was not run. */
    private static String frequency(List<ProbeTally> tallies, long level) {
        ProbeTally t = ProbeTally.at(tallies, level);
        return t == null ? "" : " " + t.frequency();
    }

    /** The "breaks when" line. */
    public String words() {
        long topDepth = DEPTHS[DEPTHS.length - 1];
        long topNoise = NOISE_PPM[NOISE_PPM.length - 1];
        String a = sharedOutagePercent < 0
                ? "no shared outage up to 80 % makes it eject (at 80 %:" + frequency(outageRuns, topDepth) + ")"
                : "a shared outage of " + sharedOutagePercent + " % of every host's requests makes it eject healthy "
                        + "hosts" + frequency(outageRuns, sharedOutagePercent)
                        + shortOf(outageRuns, sharedOutagePercent, "%") + paid(outageAddedPerThousand);
        String b = noisePpm < 0
                ? "no noise up to 12 % on every host makes it eject in 300 s (at 12.0 %:"
                        + frequency(noiseRuns, topNoise) + ")"
                : "with every host failing " + String.format(Locale.ROOT, "%.1f", noisePpm / 10_000.0) + " % of its "
                        + "requests (noise) it ejects within 300 s" + frequency(noiseRuns, noisePpm)
                        + shortOf(noiseRuns, noisePpm, "ppm") + ", so false ejections pass one a day"
                        + paid(noiseAddedPerThousand);
        String c = caughtPercent < 0
                ? "within a minute it does not catch "
                        + (ProbeTally.at(partialRuns, 100) != null
                                        && ProbeTally.at(partialRuns, 100).hits() > 0
                                ? "a dead host in every run"
                                : "even a dead host")
                        + " (at 100 %:" + frequency(partialRuns, 100) + ")"
                : caughtPercent == 100
                        ? "within a minute it catches only a host failing every request," + frequency(partialRuns, 100)
                                + shortOf(partialRuns, 100, "%")
                        : "within a minute it catches one host failing " + caughtPercent + " % of its requests or more"
                                + frequency(partialRuns, caughtPercent) + shortOf(partialRuns, caughtPercent, "%");
        return "Breaks when: " + a + "; " + b + "; " + c + " (runs of 300 s on seeds 1 to 3, each edge on "
                + EDGE_SEEDS[0] + " to " + EDGE_SEEDS[EDGE_SEEDS.length - 1] + " too; " + DEPTHS[0] + " to "
                + DEPTHS[DEPTHS.length - 1] + " % outages, 0.5 to 12 % noise, 5 to 100 % partial failures).";
    }
}
