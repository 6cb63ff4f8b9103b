package dev.outlierlab.flink;

import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.Expectation;
import dev.outlierlab.tune.RunExecutor;
import dev.outlierlab.tune.RunFigures;
import dev.outlierlab.tune.SuiteScenario;
import dev.outlierlab.tune.TuneRuns;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * The runs of a {@code tune} (candidate x scenario x seed) as Flink batch jobs: each step of the search
 * ({@code Tuner}'s baselines, screening and finalists) hands its runs to {@link #run}, which ships each run's
 * scenario and the suite scenario's scoring facts to the workers, where each run is simulated and reduced to its
 * figures as locally ({@link TuneRuns#figures}); the figures come back in the runs' order and the command scores
 * and searches with them as locally, so the result is the local {@code tune}'s, byte for byte.
 */
public final class FleetTuneJob implements RunExecutor {
    private final Integer parallelism;

    /** Runs on {@code parallelism} slots (null: the environment's default), checked by the caller. */
    FleetTuneJob(Integer parallelism) {
        this.parallelism = parallelism;
    }

    @Override
    public List<RunFigures> run(List<TuneRuns.Job> jobs, LongConsumer progress) {
        if (jobs.isEmpty()) {
            return List.of();
        }
        List<Piece> shipped = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            shipped.add(Piece.of(Piece.TUNE_RUN, i, Serial.write(ShippedRun.of(jobs.get(i))), null));
        }
        StreamExecutionEnvironment env = JobEnvironment.forRuns(parallelism);
        RunFigures[] figures = new RunFigures[jobs.size()];
        int received = 0;
        try (CloseableIterator<Piece> it = env.fromData(shipped)
                .rebalance()
                .map(new RunOne())
                .returns(Piece.class)
                .setParallelism(JobEnvironment.slots(env, parallelism, jobs.size()))
                .name("tune runs")
                .executeAndCollect("outlier-lab tune: " + jobs.size() + " runs")) {
            while (it.hasNext()) {
                Piece p = it.next();
                if (figures[p.index] == null) {
                    received++;
                }
                figures[p.index] = unpack(Serial.read(p.bytes));
                progress.accept(TuneRuns.units(jobs.get(p.index)));
            }
        } catch (Exception e) {
            throw JobFailure.of(e);
        }
        if (received != jobs.size()) {
            throw new IllegalStateException("the job ran " + received + " of " + jobs.size() + " runs");
        }
        return List.of(figures);
    }

    /**
     * One run as plain values: its scenario and what its figures are measured against (the suite scenario's
     * correct action and fault window).
     */
    record ShippedRun(
            ShippedScenario scenario,
            String suiteName,
            String description,
            Expectation expect,
            List<String> shouldEject,
            boolean singleHost,
            long faultStartNanos,
            long faultEndNanos)
            implements Serializable {

        /** The run shipped; refused if its scenario would not arrive equal to itself. */
        static ShippedRun of(TuneRuns.Job job) {
            Scenario s = job.scenario();
            ShippedScenario shipped = ShippedScenario.of(s);
            Scenario back = shipped.scenario();
            boolean same = back.equals(s);
            for (OutlierSetting o : OutlierSetting.values()) {
                same &= back.outlierDetection().isExplicit(o)
                        == s.outlierDetection().isExplicit(o);
            }
            if (!same) {
                throw new IllegalStateException(
                        "tune --engine flink: the run of " + job.suite().name() + " (seed " + s.seed()
                                + ") does not read back equal from its scenario text; run this tune locally");
            }
            SuiteScenario suite = job.suite();
            return new ShippedRun(
                    shipped,
                    suite.name(),
                    suite.description(),
                    suite.expect(),
                    new ArrayList<>(suite.shouldEject()),
                    suite.singleHost(),
                    suite.faultStartNanos(),
                    suite.faultEndNanos());
        }

        /** The run again, as {@link TuneRuns#figures} takes it. */
        TuneRuns.Job job() {
            Scenario s = scenario.scenario();
            return new TuneRuns.Job(
                    new SuiteScenario(
                            suiteName,
                            description,
                            expect,
                            s,
                            Set.copyOf(shouldEject),
                            singleHost,
                            faultStartNanos,
                            faultEndNanos),
                    s);
        }
    }

    /** Makes one run on a worker. */
    static final class RunOne implements MapFunction<Piece, Piece> {
        @Override
        public Piece map(Piece run) {
            try {
                ShippedRun shipped = Serial.read(run.bytes);
                return Piece.of(Piece.TUNE_RUN, run.index, Serial.write(pack(TuneRuns.figures(shipped.job()))), null);
            } catch (RuntimeException e) {
                throw JobFailure.notRetried(e); // a simulation fails the same way each time
            }
        }
    }

    static long[] pack(RunFigures f) {
        return new long[] {
            f.requests(),
            f.failed(),
            f.requestsDuringFault(),
            f.failedDuringFault(),
            f.ejections(),
            f.overflows(),
            f.falseEjections(),
            f.healthyEjectedNanos(),
            f.maxEjectedAtOnce(),
            f.panicNanos(),
            f.detectNanos(),
            f.returnNanos(),
            f.upstreamAttempts(),
            f.upstreamFailed(),
            f.delayedRequests(),
            f.delayNanos()
        };
    }

    static RunFigures unpack(long[] v) {
        return new RunFigures(
                v[0],
                v[1],
                v[2],
                v[3],
                v[4],
                v[5],
                v[6],
                v[7],
                Math.toIntExact(v[8]),
                v[9],
                v[10],
                v[11],
                v[12],
                v[13],
                v[14],
                v[15]);
    }
}
