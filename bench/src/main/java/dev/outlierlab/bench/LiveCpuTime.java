package dev.outlierlab.bench;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LiveClock;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LivePoolBuilder;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.grpc.util.GrpcCallTracking;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The record paths of {@link LiveBenchmark} measured in CPU time per call rather than wall time: each of
 * 1, 2 or 4 threads makes the same calls on one shared pool (or breakers, or grpc trackers) and reports its
 * own thread CPU time ({@link ThreadMXBean#getCurrentThreadCpuTime()}). On a machine shared with other work,
 * wall time per call counts the time a thread waits for a core; CPU time does not. It is a cross-check of the
 * JMH figures, not a replacement: cache and CAS contention between threads show only while they overlap.
 * A second table gives what does show them on a busy machine: the wall time per call over the stretches of a
 * run during which every thread was on a core at once (see {@link Result}).
 * Usage: {@code java -cp bench/target/benchmarks.jar dev.outlierlab.bench.LiveCpuTime [callsPerThread]}.
 */
public final class LiveCpuTime {
    private static final int ENDPOINTS = 6;

    private LiveCpuTime() {}

    interface Work {
        /** One call; {@code local} is the calling thread's own scratch value. */
        void call(int i, long[] local);
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000_000;
        LivePool pool = LivePoolBuilder.envoy("cpu", OutlierDetectionConfig.defaults(), 50)
                .seed(1)
                .endpoints("e0", "e1", "e2", "e3", "e4", "e5")
                .build()
                .start();
        Endpoint[] endpoints = pool.endpoints().toArray(new Endpoint[0]);
        LivePool atDrain = LivePoolBuilder.envoy("cpu-at-drain", OutlierDetectionConfig.defaults(), 50)
                .seed(1)
                .stampOutcomesAtDrain()
                .endpoints("e0", "e1", "e2", "e3", "e4", "e5")
                .build()
                .start();
        Endpoint[] drainEndpoints = atDrain.endpoints().toArray(new Endpoint[0]);
        CircuitBreaker[] breakers = new CircuitBreaker[ENDPOINTS];
        for (int i = 0; i < ENDPOINTS; i++) {
            breakers[i] = CircuitBreaker.ofDefaults("e" + i);
        }
        GrpcCallTracking grpc = new GrpcCallTracking(ENDPOINTS);
        Exception failure = new Exception("503", null, false, false) {};
        List<String> names = List.of(
                "liveRecordAt", "liveRecord", "liveRecord, stampOutcomesAtDrain", "resilience4jRecord", "grpcRecord");
        LiveClock clock = pool.clock();
        List<Work> works = List.of(
                // The caller's own reading of the clock at each attempt's end (it times the attempt anyway):
                // read here every 64 calls and advanced 40 ns a call in between, as a read per call would be, so
                // that the threads' outcomes interleave in time as they would.
                (i, at) -> {
                    if ((i & 63) == 0) {
                        at[0] = clock.nanoTime();
                    }
                    pool.record(endpoints[i % ENDPOINTS], (i & 15) == 15 ? 503 : 200, at[0] + (i & 63) * 40L);
                },
                (i, at) -> pool.record(endpoints[i % ENDPOINTS], (i & 15) == 15 ? 503 : 200),
                (i, at) -> atDrain.record(drainEndpoints[i % ENDPOINTS], (i & 15) == 15 ? 503 : 200),
                (i, at) -> {
                    if ((i & 15) == 15) {
                        breakers[i % ENDPOINTS].onError(0, TimeUnit.NANOSECONDS, failure);
                    } else {
                        breakers[i % ENDPOINTS].onSuccess(0, TimeUnit.NANOSECONDS);
                    }
                },
                (i, at) -> grpc.callClosed(i % ENDPOINTS, (i & 15) != 15));
        List<String> onCore = new ArrayList<>();
        System.out.println("| Benchmark | 1 thread CPU ns/call | 2 threads | 4 threads |");
        System.out.println("|---|---:|---:|---:|");
        for (int w = 0; w < works.size(); w++) {
            StringBuilder row = new StringBuilder("| `" + names.get(w) + "` (CPU time)");
            StringBuilder wall = new StringBuilder("| `" + names.get(w) + "` (wall, all on a core)");
            for (int threads : new int[] {1, 2, 4}) {
                // Lanes of the rings whose owners (the last run's threads) have ended are given up here, as the
                // tick thread does every second, so that this run's threads own lanes as long-lived threads do.
                pool.runDue();
                atDrain.runDue();
                run(works.get(w), threads, calls / 4); // warm-up
                pool.runDue();
                atDrain.runDue();
                Result r = run(works.get(w), threads, calls);
                row.append(String.format(Locale.ROOT, " | %.1f", r.cpuPerCall()));
                wall.append(
                        r.stretches() == 0
                                ? " | none"
                                : String.format(Locale.ROOT, " | %.1f (%d)", r.onCoreWallPerCall(), r.stretches()));
            }
            System.out.println(row.append(" |"));
            onCore.add(wall.append(" |").toString());
        }
        System.out.println();
        System.out.println("| Benchmark | 1 thread wall ns/call (stretches) | 2 threads | 4 threads |");
        System.out.println("|---|---:|---:|---:|");
        onCore.forEach(System.out::println);
        pool.close();
        atDrain.close();
    }

    /**
     * One run: the mean thread CPU nanoseconds per call, and the median wall nanoseconds per call over the
     * stretches of {@value LiveRecordRun#STRETCH} calls of the first thread during which every thread was on
     * a core the whole time ({@link LiveRecordRun#allOnCore}), with how many such stretches there were: on a
     * machine shared with other work, the cost of the threads running at once, cache-line transfers between
     * cores and waits for each other included. Measured by {@link LiveRecordRun#measure}.
     */
    record Result(double cpuPerCall, double onCoreWallPerCall, int stretches) {}

    private static Result run(Work work, int threads, int calls) throws Exception {
        double[] r = LiveRecordRun.measure(threads, calls, t -> {
            long[] local = new long[1];
            return i -> work.call(i, local);
        });
        return new Result(r[0], r[1], (int) r[2]);
    }
}
