package dev.outlierlab.sim;

import dev.outlierlab.sim.fault.FailureMemo;

/**
 * What a run keeps besides the summary, stats and events, and which of the simulation's two paths may run it.
 *
 * @param keepIntervals keep every tick's success-rate evaluation (for charts)
 * @param maxSeriesSteps the most time-series buckets; the step is the smallest whole number of seconds
 *                       that fits the duration into this many
 * @param watcher        told of the run's progress; may stop it
 * @param keepEvents     the most events kept in the result (the first ones); the rest are only counted
 * @param perRequest     run every request one by one even where the event-driven {@link FastPath} applies (the
 *                       result is the same; for tests and benchmarks)
 * @param failureMemo    where runs of the same scenario share the random pattern's failures ({@link FailureMemo}:
 *                       the same result), or null
 */
public record RunOptions(
        boolean keepIntervals,
        int maxSeriesSteps,
        RunWatcher watcher,
        int keepEvents,
        boolean perRequest,
        FailureMemo failureMemo) {
    public static final RunOptions DEFAULT = new RunOptions(false, 3600);
    public static final RunOptions CHARTS = new RunOptions(true, 3600);

    /** Options without a watcher. */
    public RunOptions(boolean keepIntervals, int maxSeriesSteps) {
        this(keepIntervals, maxSeriesSteps, RunWatcher.NONE, Integer.MAX_VALUE, false, null);
    }

    /** The same options with {@code watcher}. */
    public RunOptions watchedBy(RunWatcher watcher) {
        return new RunOptions(keepIntervals, maxSeriesSteps, watcher, keepEvents, perRequest, failureMemo);
    }

    /** The same options keeping only the first {@code max} events (a text report showing that many). */
    public RunOptions keepingEvents(int max) {
        return new RunOptions(keepIntervals, maxSeriesSteps, watcher, Math.max(0, max), perRequest, failureMemo);
    }

    /** The same options, run by the per-request path whether or not the fast path applies. */
    public RunOptions forcePerRequest() {
        return new RunOptions(keepIntervals, maxSeriesSteps, watcher, keepEvents, true, failureMemo);
    }

    /** The same options, the random pattern's failures shared through {@code memo} with other runs. */
    public RunOptions sharingFailures(FailureMemo memo) {
        return new RunOptions(keepIntervals, maxSeriesSteps, watcher, keepEvents, perRequest, memo);
    }
}
