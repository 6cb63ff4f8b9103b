package dev.outlierlab.bench;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import dev.outlierlab.live.Selection;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.grpc.util.GrpcCallTracking;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The live pool's per-request paths against what other libraries do per call, with every thread of the run
 * sharing one pool of six endpoints (run with 1, 2 and 4 threads by {@link LiveBenchmarks}). Each thread
 * walks the endpoints round robin; one outcome in 16 is a 503.
 * <ul>
 *   <li>{@code liveRecordAt}: {@link LivePool#record(Endpoint, int, long)} with the time the caller read
 *       when its attempt ended (the failover client and the proxy time each attempt, so they have it), including
 *       its share of draining into the engine (the rings fill and the recording thread drains them, or the
 *       tick thread does); the benchmark reads the clock once per 64 calls and advances it 40 ns a call in
 *       between, so the times are real and the threads' outcomes interleave as they would;</li>
 *   <li>{@code liveRecord}: {@link LivePool#record(Endpoint, int)}, the same plus a clock read per call;</li>
 *   <li>{@code liveFilter}: {@link LivePool#filter()} over the six, nothing ejected;</li>
 *   <li>{@code liveRequest}: filter, then record the first candidate's outcome;</li>
 *   <li>{@code resilience4jRecord}: {@code CircuitBreaker.onSuccess/onError} on one breaker per endpoint
 *       (default count-based window of 100);</li>
 *   <li>{@code resilience4jRecordTimed}: the same with one clock read per call, the least a caller pays for the
 *       duration it passes (the like of {@code liveRecord}, which reads the clock itself);</li>
 *   <li>{@code resilience4jPermit}: {@code tryAcquirePermission} on each of the six breakers, building the
 *       list of those that permit (the breaker's equivalent of filtering);</li>
 *   <li>{@code grpcRecord}: grpc-java's {@code OutlierDetectionLoadBalancer} call tracking
 *       ({@code EndpointTracker.incrementCallCount}), the work its stream tracer does per finished call.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class LiveBenchmark {
    static final int ENDPOINTS = 6;

    LivePool pool;
    Endpoint[] endpoints;
    CircuitBreaker[] breakers;
    GrpcCallTracking grpc;

    @Setup(Level.Trial)
    public void setUp() {
        pool = LivePoolBuilder.envoy("bench", OutlierDetectionConfig.defaults(), 50)
                .seed(1)
                .endpoints("e0", "e1", "e2", "e3", "e4", "e5")
                .build()
                .start();
        endpoints = pool.endpoints().toArray(new Endpoint[0]);
        breakers = new CircuitBreaker[ENDPOINTS];
        for (int i = 0; i < ENDPOINTS; i++) {
            breakers[i] = CircuitBreaker.ofDefaults("e" + i);
        }
        grpc = new GrpcCallTracking(ENDPOINTS);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
    }

    /** Each thread's position in the round robin and in the 1-in-16 failure pattern. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;
        long attemptEndNanos;

        int endpoint() {
            return next % ENDPOINTS;
        }

        boolean failure() {
            return (next & 15) == 15;
        }

        void step() {
            next++;
        }
    }

    @Benchmark
    public boolean liveRecord(Cursor c) {
        boolean accepted = pool.record(endpoints[c.endpoint()], c.failure() ? 503 : 200);
        c.step();
        return accepted;
    }

    @Benchmark
    public boolean liveRecordAt(Cursor c) {
        // The caller's reading of the clock at the attempt's end, which it takes to time the attempt anyway:
        // read here once every 64 calls (0.5 ns a call) and advanced 40 ns a call in between, as a read per call
        // would be, so that the threads' outcomes interleave in time as they would.
        if ((c.next & 63) == 0) {
            c.attemptEndNanos = pool.clock().nanoTime();
        }
        boolean accepted =
                pool.record(endpoints[c.endpoint()], c.failure() ? 503 : 200, c.attemptEndNanos + (c.next & 63) * 40L);
        c.step();
        return accepted;
    }

    @Benchmark
    public Selection liveFilter() {
        return pool.filter();
    }

    @Benchmark
    public boolean liveRequest(Cursor c) {
        Selection s = pool.filter();
        boolean accepted = pool.record(s.candidates().get(0), c.failure() ? 503 : 200);
        c.step();
        return accepted;
    }

    @Benchmark
    public int resilience4jRecord(Cursor c) {
        CircuitBreaker breaker = breakers[c.endpoint()];
        if (c.failure()) {
            breaker.onError(0, TimeUnit.NANOSECONDS, FAILURE);
        } else {
            breaker.onSuccess(0, TimeUnit.NANOSECONDS);
        }
        c.step();
        return c.next;
    }

    @Benchmark
    public int resilience4jRecordTimed(Cursor c) {
        // What a caller of onSuccess/onError pays to have the duration it passes: at least one clock read per
        // call (Resilience4j's own decorators read it at the start and at the end of the call).
        long durationNanos = System.nanoTime() - c.attemptEndNanos;
        CircuitBreaker breaker = breakers[c.endpoint()];
        if (c.failure()) {
            breaker.onError(durationNanos, TimeUnit.NANOSECONDS, FAILURE);
        } else {
            breaker.onSuccess(durationNanos, TimeUnit.NANOSECONDS);
        }
        c.step();
        return c.next;
    }

    @Benchmark
    public List<CircuitBreaker> resilience4jPermit() {
        List<CircuitBreaker> permitted = new ArrayList<>(ENDPOINTS);
        for (CircuitBreaker b : breakers) {
            if (b.tryAcquirePermission()) {
                permitted.add(b);
            }
        }
        return permitted;
    }

    @Benchmark
    public int grpcRecord(Cursor c) {
        grpc.callClosed(c.endpoint(), !c.failure());
        c.step();
        return c.next;
    }

    private static final Exception FAILURE = new Exception("503", null, false, false) {};
}
