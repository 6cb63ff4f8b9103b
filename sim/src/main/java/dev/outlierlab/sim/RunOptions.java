package dev.outlierlab.sim;

/**
 * What a run keeps besides the summary, stats and events.
 *
 * @param keepIntervals keep every tick's success-rate evaluation (for charts)
 * @param maxSeriesSteps the most time-series buckets; the step is the smallest whole number of seconds
 *                       that fits the duration into this many
 */
public record RunOptions(boolean keepIntervals, int maxSeriesSteps) {
    public static final RunOptions DEFAULT = new RunOptions(false, 3600);
    public static final RunOptions CHARTS = new RunOptions(true, 3600);
}
