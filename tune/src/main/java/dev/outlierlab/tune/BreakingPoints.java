package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a setting stops doing what it should, found by runs of the same simulation as the suite (seed 1, the
 * cluster's hosts, rate, callers and health check): the shallowest shared outage (every host failing 10 % to 80 %)
 * that makes it eject, the lowest noise on every host (0.5 % to 12 % of requests, all the time) at which it ejects a
 * healthy host at all in a run of 300 s (one such ejection is 288 a day), and the smallest partial failure of one host
 * (5 % to 100 %) that it ejects within a minute of the fault's start.
 *
 * @param sharedOutagePercent the shallowest shared outage that makes it eject, or -1 when none up to 80 % does
 * @param noisePpm            the lowest noise that makes it eject, in parts per million, or -1 when none up to 12 %
 * @param caughtPercent       the smallest partial failure ejected within a minute, or -1 when not even a dead host
 */
public record BreakingPoints(int sharedOutagePercent, long noisePpm, int caughtPercent) {
    static final int[] DEPTHS = {10, 20, 30, 40, 50, 60, 70, 80};
    static final long[] NOISE_PPM = {5_000, 10_000, 20_000, 30_000, 50_000, 80_000, 120_000};
    static final int[] PARTIAL = {5, 10, 20, 30, 40, 50, 60, 80, 100};
    /** Within this long of the fault's start an ejection counts as caught. */
    static final long CAUGHT_WITHIN_NANOS = 60_000_000_000L;

    /** The probes as suite scenarios: the shared outages, the noise levels, then the partial failures. */
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

    /** Runs the probes with the written setting, seed 1. */
    static BreakingPoints of(TuneRequest req, Target.Written w, RunExecutor runner) {
        List<SuiteScenario> probes = probes(req);
        List<TuneRuns.Job> jobs = new ArrayList<>();
        for (SuiteScenario p : probes) {
            jobs.add(new TuneRuns.Job(
                    p, p.with(1, w.config(), w.panicThresholdPercent(), req.envoyVersion()), w.profile()));
        }
        List<RunFigures> f = runner.run(jobs, u -> {});
        int shared = -1;
        for (int i = 0; i < DEPTHS.length && shared < 0; i++) {
            if (f.get(i).ejections() > 0) {
                shared = DEPTHS[i];
            }
        }
        long noise = -1;
        for (int i = 0; i < NOISE_PPM.length && noise < 0; i++) {
            if (f.get(DEPTHS.length + i).ejections() > 0) {
                noise = NOISE_PPM[i];
            }
        }
        int caught = -1;
        for (int i = 0; i < PARTIAL.length && caught < 0; i++) {
            RunFigures r = f.get(DEPTHS.length + NOISE_PPM.length + i);
            if (caught(r)) {
                caught = PARTIAL[i];
            }
        }
        return new BreakingPoints(shared, noise, caught);
    }

    /** Whether the failing host was ejected within a minute of the fault's start. */
    static boolean caught(RunFigures r) {
        return r.detectNanos() >= 0 && r.detectNanos() <= CAUGHT_WITHIN_NANOS;
    }

    /** The "breaks when" line. */
    public String words() {
        String a = sharedOutagePercent < 0
                ? "no shared outage up to 80 % makes it eject"
                : "a shared outage of " + sharedOutagePercent
                        + " % of every host's requests makes it eject healthy hosts";
        String b = noisePpm < 0
                ? "no noise up to 12 % on every host makes it eject in 300 s"
                : "with every host failing " + String.format(Locale.ROOT, "%.1f", noisePpm / 10_000.0) + " % of its "
                        + "requests (noise) it ejects within 300 s, so false ejections pass one a day";
        String c = caughtPercent < 0
                ? "it ejects no failing host within a minute, not even a dead one"
                : caughtPercent == 100
                        ? "within a minute it catches only a host failing every request"
                        : "within a minute it catches one host failing " + caughtPercent + " % of its requests or more "
                                + "(not less)";
        return "Breaks when: " + a + "; " + b + "; " + c + " (seed 1, " + DEPTHS[0] + " to " + DEPTHS[DEPTHS.length - 1]
                + " % outages, 0.5 to 12 % noise, 5 to 100 % partial failures).";
    }
}
