package dev.outlierlab.bench;

import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.HostMonitor;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierDetector;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The engine's per-request path alone, without the simulator: one {@code HostMonitor.putHttpResponseCode}
 * per operation on an {@link OutlierDetector} over 1,000 hosts, round-robin, at 100,000 simulated requests
 * per second, with {@code tick} run whenever simulated time reaches the next 10 s interval (its cost is
 * amortised into the figure). Codes come from a fixed mix: healthy hosts answer 200 (with a 404 and a 500 now
 * and then); ten "bad" hosts answer 503 on 30 % of their requests, each from its own place in the pattern.
 * Success rate ejects the bad hosts and then, once the spread of rates is tight, healthy hosts with a few
 * more 500s than average; consecutive 5xx fires now and then; the 20 % cap refuses some; hosts return.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Thread)
public class EngineBenchmark {
    static final int HOSTS = 1_000;
    static final int BAD_HOSTS = 10;
    /** 100,000 requests per second. */
    static final long STEP_NANOS = 10_000;
    /** Length of the code patterns: a power of two, so the index is a mask. */
    static final int MIX = 1 << 16;

    HostMonitor[] monitors;
    OutlierDetector detector;
    /** Host h answers codes[(round + h) & (MIX - 1)] if healthy, badCodes[(round + h * 4099) & (MIX - 1)] if bad. */
    int[] codes;

    int[] badCodes;
    long intervalNanos;
    long nextTickNanos;
    long nowNanos;
    int host;
    int round;

    @Setup
    public void setUp() {
        OutlierDetectionConfig config = OutlierDetectionConfig.builder()
                .set(OutlierSetting.MAX_EJECTION_PERCENT, 20)
                .build();
        detector = new OutlierDetector(config, new SeededRandom(1), DetectorListener.NONE);
        monitors = new HostMonitor[HOSTS];
        for (int h = 0; h < HOSTS; h++) {
            monitors[h] = detector.addHost("host-" + h);
        }
        SeededRandom random = new SeededRandom(42);
        codes = new int[MIX];
        badCodes = new int[MIX];
        for (int i = 0; i < MIX; i++) {
            long r = Long.remainderUnsigned(random.next(), 1000);
            codes[i] = r < 5 ? 500 : r < 15 ? 404 : 200;
            badCodes[i] = r < 300 ? 503 : 200;
        }
        intervalNanos = config.intervalNanos();
        nextTickNanos = intervalNanos;
    }

    /** One response reported to one host, plus the interval tick when simulated time reaches it. */
    @Benchmark
    public void putHttpResponseCode() {
        long now = nowNanos;
        if (now >= nextTickNanos) {
            detector.tick(nextTickNanos);
            nextTickNanos += intervalNanos;
        }
        int h = host;
        int code = h < BAD_HOSTS ? badCodes[(round + h * 4099) & (MIX - 1)] : codes[(round + h) & (MIX - 1)];
        monitors[h].putHttpResponseCode(code, now);
        nowNanos = now + STEP_NANOS;
        if (++h == HOSTS) {
            h = 0;
            round++;
        }
        host = h;
    }
}
