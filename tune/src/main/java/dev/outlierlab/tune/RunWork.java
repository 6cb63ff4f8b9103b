package dev.outlierlab.tune;

import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.WorkEstimate;

/**
 * The work a run made, in request-equivalents, from its figures: its estimate before running ({@link TuneRuns#units})
 * less the failures it spared. On the event-driven path (every fault even or random) a failure costs
 * {@link WorkEstimate#unitsPerPlannedFailure} and a success to a healthy host nothing, so a run that ejects a failing
 * host early makes few of the failures detection off makes ({@link WorkEstimate#expectedFailures}), and costs that much
 * less; on the per-request path every request is walked whatever it finds, and so is any run of another profile. A
 * count, never a time: the same run always gives the same figure.
 */
final class RunWork {
    private RunWork() {}

    /** The request-equivalents run {@code job} made, given what it found. */
    static long units(TuneRuns.Job job, RunFigures found) {
        long planned = TuneRuns.units(job);
        if (job.profile() != RunProfile.ENVOY) {
            return planned;
        }
        WorkEstimate w = WorkEstimate.ofRun(job.scenario(), RunOptions.DEFAULT, false);
        double expected = WorkEstimate.expectedFailures(job.scenario());
        if (w.countedRequests() != w.requests() || expected <= 0) {
            return planned;
        }
        double spared = Math.max(0, expected - found.upstreamFailed())
                * WorkEstimate.unitsPerPlannedFailure(job.scenario().traffic().clients());
        return Math.max(0, planned - (long) spared);
    }
}
