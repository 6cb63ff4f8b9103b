package dev.outlierlab.flink;

import dev.outlierlab.cli.SweepCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * The runs of a {@code sweep} as a Flink batch job: the runs' numbers spread over the workers, each worker runs
 * its runs as the command does ({@link SweepCommand.Run#run}: the scenario loaded from the same source and
 * overrides, simulated, its figures and summary), and the command prints the rows in the runs' order: the same
 * table, CSV or JSON as the local sweep.
 */
public final class FleetSweepJob implements SweepCommand.SweepEngine {
    private final Parallelism bound;

    FleetSweepJob(Parallelism bound) {
        this.bound = bound;
    }

    @Override
    public List<SweepCommand.RunRow> run(List<SweepCommand.Run> runs, Integer parallelism) {
        StreamExecutionEnvironment env = JobEnvironment.forRuns(bound.check(parallelism));
        List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            numbers.add(i);
        }
        TreeMap<Integer, SweepCommand.RunRow> rows = new TreeMap<>();
        try (CloseableIterator<Piece> it = env.fromData(numbers)
                .rebalance()
                .map(new RunOne(runs))
                .returns(Piece.class)
                .setParallelism(JobEnvironment.slots(env, parallelism, runs.size()))
                .name("sweep runs")
                .executeAndCollect("outlier-lab sweep of " + runs.size() + " runs")) {
            while (it.hasNext()) {
                Piece p = it.next();
                rows.put(p.index, Serial.read(p.bytes));
            }
        } catch (Exception e) {
            throw JobFailure.of(e);
        }
        if (rows.size() != runs.size()) {
            throw new IllegalStateException("the job ran " + rows.size() + " of " + runs.size() + " runs");
        }
        return new ArrayList<>(rows.values());
    }

    /** Runs one run on a worker. */
    static final class RunOne implements MapFunction<Integer, Piece> {
        private final ArrayList<SweepCommand.Run> runs;

        RunOne(List<SweepCommand.Run> runs) {
            this.runs = new ArrayList<>(runs);
        }

        @Override
        public Piece map(Integer i) {
            try {
                return Piece.of(Piece.RUN, i, Serial.write(runs.get(i).run()), null);
            } catch (RuntimeException e) {
                throw JobFailure.notRetried(e); // a simulation fails the same way each time
            }
        }
    }
}
