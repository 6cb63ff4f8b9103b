package dev.outlierlab.tune;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;

/**
 * Local runs remembered by job: a second search over the same suite (another constraint, the same candidates) makes
 * only the runs the first did not. The runs themselves are the real simulation ({@link TuneRuns}).
 */
final class MemoRunExecutor implements RunExecutor {
    private final TuneRuns runs;
    private final Map<TuneRuns.Job, RunFigures> made = new HashMap<>();

    MemoRunExecutor(int threads) {
        this.runs = new TuneRuns(threads);
    }

    @Override
    public List<RunFigures> run(List<TuneRuns.Job> jobs, LongConsumer progress) {
        Set<TuneRuns.Job> todo = new LinkedHashSet<>();
        for (TuneRuns.Job j : jobs) {
            if (!made.containsKey(j)) {
                todo.add(j);
            }
        }
        List<TuneRuns.Job> missing = new ArrayList<>(todo);
        List<RunFigures> figures = runs.run(missing, progress);
        for (int i = 0; i < missing.size(); i++) {
            made.put(missing.get(i), figures.get(i));
        }
        List<RunFigures> out = new ArrayList<>();
        for (TuneRuns.Job j : jobs) {
            out.add(made.get(j));
        }
        return out;
    }
}
