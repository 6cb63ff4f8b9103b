package dev.outlierlab.bench;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.stage.StageMode;
import dev.outlierlab.sim.gateway.GatewayRunResult;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewaySimulation;
import dev.outlierlab.sim.scenario.TrafficSpec;
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
 * Whole runs of the gateway simulation, {@code GatewaySimulation.run(scenario)} end to end on one thread: six
 * endpoints, round robin, the first failing 33 % from 30 s to 240 s, the gateway defaults, at 10,000
 * requests per second for 300 simulated seconds (3 million requests): every request's routing, stage
 * (returns, filtering, the guard), attempt and judgement, and the result. The primary score is runs per
 * second; the {@code attempts} secondary score is simulated attempts per second. Run with {@code -prof gc}
 * for the allocation per attempt ({@code gc.alloc.rate.norm} divided by 3 million). The warm-up is 12 s: the
 * methods a run calls only at decisions (an ejection, a return, the stage's filter when its cache misses) are
 * called a few dozen times a run, and the JIT compiles them fully only after about 10 s; with 6 s of warm-up the
 * first measured iterations ran at two thirds of the steady rate.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 6, time = 2)
@Measurement(iterations = 5, time = 2)
public class GatewayBenchmark {

    /** Simulated attempts, reported by JMH as a rate next to the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Attempts {
        public long attempts;

        @Setup(Level.Iteration)
        public void reset() {
            attempts = 0;
        }
    }

    @State(Scope.Benchmark)
    public static class SixEndpoints {
        /** prod removes the bad endpoint while it is ejected; shadow only names it. */
        @Param({"prod", "shadow"})
        public String mode;

        GatewayScenario scenario;

        @Setup
        public void setUp() {
            scenario = sixEndpoints(mode);
        }
    }

    /** The benchmark's scenario in the given mode ({@code off}, {@code shadow} or {@code prod}). */
    static GatewayScenario sixEndpoints(String mode) {
        GatewayScenario base = GatewayScenario.defaults();
        GatewayConfig config = base.gateway().withMode(StageMode.parse("mode", mode));
        return new GatewayScenario(
                "bench-gateway",
                300 * Durations.SECOND,
                1,
                base.endpoints(),
                new TrafficSpec(10_000),
                base.faults(),
                config,
                base.routing());
    }

    @Benchmark
    public GatewayRunResult sixEndpoints(SixEndpoints state, Attempts counter) {
        GatewayRunResult r = GatewaySimulation.run(state.scenario);
        counter.attempts += r.summary().attempts();
        return r;
    }
}
