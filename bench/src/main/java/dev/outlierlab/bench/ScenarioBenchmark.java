package dev.outlierlab.bench;

import dev.outlierlab.sim.RunOptions;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.Simulation;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Whole runs of the simulator's per-request path, {@code Simulation.run(scenario, RunOptions.DEFAULT.forcePerRequest())}
 * end to end: building the cluster, every request, every tick, and the result (the event-driven path, which
 * {@code Simulation.run} takes by default, is measured against it by {@link FastPathCpuTime}). The primary score is runs per second; the {@code requests} secondary
 * score is simulated requests per second (the run's request count over the same time).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ScenarioBenchmark {
    private static final RunOptions PER_REQUEST = RunOptions.DEFAULT.forcePerRequest();

    /** Simulated requests, reported by JMH as a rate next to the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Requests {
        public long requests;

        @Setup(Level.Iteration)
        public void reset() {
            requests = 0;
        }
    }

    @State(Scope.Benchmark)
    public static class DefaultScenario {
        Scenario scenario;

        @Setup
        public void setUp() {
            scenario = Scenarios.defaults();
        }
    }

    @State(Scope.Benchmark)
    public static class LargeScenario {
        /** Simulated minutes: 60 is the hour (360 million requests); 10 and 30 check memory. */
        @Param({"60"})
        public int minutes;

        /** Requests per second: 100,000 in the issue; another rate at the same duration shows that memory
         * follows simulated time (ticks), not the number of requests. */
        @Param({"100000"})
        public long rps;

        Scenario scenario;

        @Setup
        public void setUp() {
            scenario = Scenarios.large(minutes, rps);
        }
    }

    /** The default scenario: 6 hosts, 600 rps, 300 s (180,000 requests), one host failing 33 %. */
    @Benchmark
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public RunResult defaultScenario(DefaultScenario state, Requests counters) {
        RunResult result = Simulation.run(state.scenario, PER_REQUEST);
        counters.requests += result.summary().requests();
        return result;
    }

    /**
     * The large scenario: 1,000 hosts, 100,000 rps, 60 minutes (360 million requests), five hosts at 30 %
     * from 5 to 50 minutes, cap 20 %. One run takes seconds, so each iteration is one or two runs.
     */
    @Benchmark
    @Warmup(iterations = 1, time = 1)
    @Measurement(iterations = 3, time = 1)
    public RunResult largeScenario(LargeScenario state, Requests counters) {
        RunResult result = Simulation.run(state.scenario, PER_REQUEST);
        counters.requests += result.summary().requests();
        return result;
    }
}
