package dev.outlierlab.tune;

import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.scenario.FaultPattern;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.Arrays;

/**
 * What a search's runs cost, for the work limit of {@code tune} ({@link SearchBudget}): the work of each kind a run does
 * ({@link Kind}), counted from its scenario before it runs ({@link #planned}) or from its scenario and what it found
 * once it has ({@link #made}), and in CPU nanoseconds at each kind's measured cost ({@link #nanos}). Counted, never
 * timed: the same runs always give the same cost. A sum of runs is a cost too ({@link #plus}, {@link #times}), so a
 * pilot's estimate is a cost whose CPU time follows the weights.
 */
public final class RunCost {
    /**
     * The kinds of work a run does, each with its CPU cost in nanoseconds: the only figures to change when the runs'
     * costs change. Fitted by {@code dev.outlierlab.bench.TuneRate} on 2026-12-06 08:13 to 08:55 UTC (C1 only, as
     * {@code ./outlier-lab tune} runs; 2-core machine at load average 10 to 23): nonnegative least squares of each run's
     * counts against its worker thread's CPU time, each search's runs weighing alike in all, over the 16,014 runs of
     * eight searches (8 hosts at 2,000 rps; 6 at 600; gRPC 5 at 100; Istio 12 at 400 with 5 callers; the gateway 4 at
     * 200; 20 hosts at 20,000 with 20 callers; 200 hosts at 20,000; 50 hosts at 50,000 with 50 callers). Each search's
     * runs at these costs came to 0.87 to 1.16 times their CPU. Fault draws came out at nothing: their cost is in the
     * requests and failures they come with. To recalibrate: {@code java -XX:TieredStopAtLevel=1 -cp
     * bench/target/benchmarks.jar dev.outlierlab.bench.TuneRate all > runs.csv} (about 10 CPU minutes; {@code quick}
     * leaves out the 50-caller search, 8 of them), then {@code java -cp bench/target/benchmarks.jar
     * dev.outlierlab.bench.TuneRate fit runs.csv} prints the costs to put here and the factor for
     * {@link SearchPilot#SCALE_PERCENT}.
     */
    public enum Kind {
        /** A request walked one by one (the per-request path, or a burst fault's host on the event-driven path). */
        WALKED_REQUEST(59, "requests walked"),
        /** A fault's draw for a request to a faulty host (scanned in bulk on the event-driven path). */
        FAULT_DRAW(0, "fault draws"),
        /** A failure counted in bulk (one caller outside split mode: those that reach no threshold are folded). */
        FOLDED_FAILURE(72, "failures folded"),
        /** A failure reported to the detector, recorded and replanned one by one (several callers, split mode). */
        REPORTED_FAILURE(119, "failures reported one by one"),
        /** A host evaluated at an interval tick by one caller (success rate, failure percentage, returns). */
        HOST_EVALUATION(662, "host evaluations at ticks"),
        /** A health-check probe of one host by one caller. */
        HEALTH_CHECK_PROBE(36, "health-check probes"),
        /** A request-equivalent of a profile of its own (gRPC's, a proxy's; {@link RunProfile#units}). */
        PROFILE_UNIT(40, "request-equivalents of other profiles"),
        /** An attempt-equivalent of the gateway profile ({@link GatewayRun#units}). */
        GATEWAY_UNIT(16, "gateway attempt-equivalents"),
        /** What every run costs whatever it simulates (building the scenario's cluster and detectors, its figures). */
        RUN(228_000, "runs");

        /** The CPU time of one, in nanoseconds. */
        public final double nanos;

        /** What is counted, in words. */
        public final String words;

        Kind(double nanos, String words) {
            this.nanos = nanos;
            this.words = words;
        }
    }

    /** No work. */
    public static final RunCost NONE = new RunCost(new double[Kind.values().length]);

    private final double[] counts;

    private RunCost(double[] counts) {
        this.counts = counts;
    }

    /** A cost of the given counts, in the order of {@link Kind}. */
    public static RunCost of(double... counts) {
        if (counts.length != Kind.values().length) {
            throw new IllegalArgumentException("expected " + Kind.values().length + " counts, got " + counts.length);
        }
        return new RunCost(counts.clone());
    }

    /** The count of work of kind {@code k}. */
    public double count(Kind k) {
        return counts[k.ordinal()];
    }

    /** The counts in the order of {@link Kind}. */
    public double[] counts() {
        return counts.clone();
    }

    /** The CPU time at the kinds' costs, in nanoseconds. */
    public double nanos() {
        double ns = 0;
        for (Kind k : Kind.values()) {
            ns += counts[k.ordinal()] * k.nanos;
        }
        return ns;
    }

    /** The CPU time at other costs ({@code nanos[k]} for kind k), for calibrating them. */
    public double nanos(double[] nanos) {
        double ns = 0;
        for (int k = 0; k < counts.length; k++) {
            ns += counts[k] * nanos[k];
        }
        return ns;
    }

    public RunCost plus(RunCost other) {
        double[] out = counts.clone();
        for (int k = 0; k < out.length; k++) {
            out[k] += other.counts[k];
        }
        return new RunCost(out);
    }

    public RunCost times(double factor) {
        double[] out = counts.clone();
        for (int k = 0; k < out.length; k++) {
            out[k] *= factor;
        }
        return new RunCost(out);
    }

    /**
     * The cost of a run before it runs: every failure its faults make with detection off
     * ({@link WorkEstimate#expectedFailures}) counted as made.
     */
    public static RunCost planned(TuneRuns.Job job) {
        return of(job, -1);
    }

    /** The cost of a run that found {@code found}: the failures it made (a run that ejects early makes fewer). */
    public static RunCost made(TuneRuns.Job job, RunFigures found) {
        return of(job, found.upstreamFailed());
    }

    /** The cost of {@code job} with {@code failures} made, or those expected with detection off when negative. */
    private static RunCost of(TuneRuns.Job job, long failures) {
        double[] c = new double[Kind.values().length];
        c[Kind.RUN.ordinal()] = 1;
        Scenario s = job.scenario();
        if (job.profile() instanceof GatewayRun) {
            c[Kind.GATEWAY_UNIT.ordinal()] = job.profile().units(s);
            return new RunCost(c);
        }
        if (job.profile() != RunProfile.ENVOY) {
            c[Kind.PROFILE_UNIT.ordinal()] = job.profile().units(s);
            return new RunCost(c);
        }
        // the path Simulation.run takes: the event-driven one where it applies and is cheaper
        WorkEstimate w = WorkEstimate.ofRun(s, RunOptions.DEFAULT, false);
        boolean eventDriven = w.countedRequests() > 0;
        boolean indexed = s.faults().stream().noneMatch(f -> f.pattern() == FaultPattern.BURSTS);
        c[Kind.WALKED_REQUEST.ordinal()] = w.requests() - w.countedRequests();
        c[Kind.FAULT_DRAW.ordinal()] = WorkEstimate.of(s).faultSteps();
        double failed = failures >= 0 ? failures : WorkEstimate.expectedFailures(s);
        boolean folded = eventDriven
                && indexed
                && s.traffic().clients() == 1
                && !s.outlierDetection().splitExternalLocalOriginErrors();
        c[(folded ? Kind.FOLDED_FAILURE : Kind.REPORTED_FAILURE).ordinal()] = failed;
        long ticks = s.durationNanos() / s.outlierDetection().intervalNanos();
        c[Kind.HOST_EVALUATION.ordinal()] =
                (double) ticks * s.cluster().size() * s.traffic().clients();
        c[Kind.HEALTH_CHECK_PROBE.ordinal()] = WorkEstimate.healthCheckProbes(s);
        return new RunCost(c);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunCost r && Arrays.equals(counts, r.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (Kind k : Kind.values()) {
            if (counts[k.ordinal()] > 0) {
                b.append(b.length() == 0 ? "" : ", ")
                        .append(String.format(java.util.Locale.ROOT, "%.0f %s", counts[k.ordinal()], k.words));
            }
        }
        return b.toString();
    }
}
