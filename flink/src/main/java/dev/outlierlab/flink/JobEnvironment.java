package dev.outlierlab.flink;

import java.time.Duration;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.collect.CollectSinkOperatorFactory;

/**
 * The execution environment every job of the module runs in: batch execution, the parallelism asked for, and,
 * unless the configuration Flink gives the job names one ({@code config.yaml}, {@code -D}), a restart strategy
 * that survives a lost TaskManager. Flink's default for a batch job without checkpoints is no restart; a
 * {@code fixed-delay} of a few seconds runs out of attempts before the lost TaskManager's slots are given up
 * (after {@code heartbeat.timeout}, 50 s by default), while {@code exponential-delay} (1 s, growing by 1.5 to at
 * most a minute) still has attempts left when they are: {@value #ATTEMPTS} attempts reach past ten minutes.
 * Generic types (Flink's Kryo fallback) are refused: every type the jobs move has Flink's own serialiser.
 */
final class JobEnvironment {
    static final int ATTEMPTS = 20;
    /** The largest result the client collects (Flink's {@code collect-sink.batch-size.max}). */
    static final int MAX_RESULT_MB = 256;

    private JobEnvironment() {}

    /** A batch environment with the job's restarts, at {@code parallelism} (null: the environment's default). */
    static StreamExecutionEnvironment batch(Integer parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        if (parallelism != null) {
            env.setParallelism(parallelism);
        }
        // The client collects the job's results; without checkpoints its iterator gives up on the first restart
        // ("Job restarted"). With checkpoints configured at least once (batch execution takes none) it starts
        // over from the restarted results instead; the job's client tolerates a result received twice.
        env.enableCheckpointing(Duration.ofDays(1).toMillis(), CheckpointingMode.AT_LEAST_ONCE);
        // one result can be megabytes (the plan of a detector of 100,000 hosts, its section of the report); Flink's
        // default bound of 2 MB per batch of collected results fails such a job, and does so at every restart
        Configuration collected = new Configuration();
        collected.set(CollectSinkOperatorFactory.MAX_BATCH_SIZE, MemorySize.ofMebiBytes(MAX_RESULT_MB));
        // every value the job moves has Flink's own serialiser (a POJO's, byte arrays, strings, longs); a type that
        // fell back to Kryo, which writes class names and reflects field by field, fails the job's building instead
        collected.set(PipelineOptions.GENERIC_TYPES, false);
        env.configure(collected);
        if (env.getConfiguration()
                .getOptional(RestartStrategyOptions.RESTART_STRATEGY)
                .isEmpty()) {
            Configuration restarts = new Configuration();
            restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
            restarts.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS, ATTEMPTS);
            env.configure(restarts);
        }
        return env;
    }

    /**
     * As {@link #batch}, for runs of simulations (a tune's or a sweep's): Flink's adaptive batch scheduler sizes
     * each step by the bytes of its input, and a few hundred runs are a few KB, so it would make them all in one
     * slot; the runs are spread over every slot instead ({@link #slots}).
     */
    static StreamExecutionEnvironment forRuns(Integer parallelism) {
        StreamExecutionEnvironment env = batch(parallelism);
        Configuration fixed = new Configuration();
        fixed.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
        env.configure(fixed);
        return env;
    }

    /** The number of slots the runs go to: the parallelism asked for, else the environment's default. */
    static int slots(StreamExecutionEnvironment env, Integer parallelism, int runs) {
        int p = parallelism != null ? parallelism : Math.max(1, env.getParallelism());
        return Math.max(1, Math.min(p, runs));
    }
}
