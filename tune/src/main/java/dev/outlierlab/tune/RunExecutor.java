package dev.outlierlab.tune;

import java.util.List;
import java.util.function.LongConsumer;

/**
 * Where a tune's runs are made: given the runs of one step of the search (candidate x scenario x seed, each a
 * {@link TuneRuns.Job}), returns each run's {@link RunFigures} in the order given, and tells {@code progress} the
 * work of each finished run. {@link TuneRuns} (a fixed pool of local threads) is the default; the {@code flink}
 * module's job spreads the runs over a Flink cluster's slots. {@link Tuner} does the scoring and the search with
 * the figures, wherever they were made, so the same runs give the same result.
 */
public interface RunExecutor {
    /** Makes every run and returns their figures in the order of {@code jobs}. */
    List<RunFigures> run(List<TuneRuns.Job> jobs, LongConsumer progress);
}
