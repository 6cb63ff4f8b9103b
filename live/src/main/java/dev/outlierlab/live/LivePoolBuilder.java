package dev.outlierlab.live;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.SeededRandom;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import dev.outlierlab.engine.stage.StageMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds a {@link LivePool}: the profile and its settings, then optional endpoints, mode (default
 * {@link StageMode#PROD}, the gateway spec's default), clock (default {@link LiveClock#SYSTEM}), seed of the
 * Envoy profile's enforcement and jitter draws (default: drawn from the clock; set it to reproduce a lab
 * run), and the rings' shape (stripes, the lanes a recording thread is hashed to, each with a ring its first
 * thread owns and a ring its other threads share: a power of two, default the next power of two at or above
 * twice the processors, at most 64; capacity per ring, a power of two of at least 4, default 1024).
 */
public final class LivePoolBuilder {
    /** Creates the profile's detector once the pool exists to receive its decisions. */
    interface DetectorFactory {
        PoolDetector create(DecisionSink sink);
    }

    final String name;
    DetectorFactory detectorFactory;
    StageMode mode = StageMode.PROD;
    LiveClock clock = LiveClock.SYSTEM;
    boolean stampAtRecord = true;
    Long seed;
    int stripes = defaultStripes();
    int ringCapacity = 1024;
    final List<String> endpoints = new ArrayList<>();
    boolean gateway;
    int maxEjectionPercent = 100;

    private LivePoolBuilder(String name) {
        this.name = Objects.requireNonNull(name, "pool name");
    }

    /**
     * The Envoy profile: the engine's Envoy detector with these {@code outlier_detection} settings, and
     * Envoy's {@code healthy_panic_threshold} (percent; 50 by default, 0 turns panic off).
     */
    public static LivePoolBuilder envoy(String name, OutlierDetectionConfig config) {
        return envoy(name, config, 50);
    }

    public static LivePoolBuilder envoy(String name, OutlierDetectionConfig config, long panicThresholdPercent) {
        Objects.requireNonNull(config, "config");
        if (panicThresholdPercent < 0 || panicThresholdPercent > 100) {
            throw new IllegalArgumentException(
                    "panic threshold " + panicThresholdPercent + " is not a percentage (0 to 100)");
        }
        requireWholeMilliseconds(config);
        LivePoolBuilder b = new LivePoolBuilder(name);
        b.detectorFactory = sink -> new EnvoyPoolDetector(
                config, panicThresholdPercent, new SeededRandom(b.seed != null ? b.seed : b.clock.nanoTime()), sink);
        return b;
    }

    /**
     * The gRPC profile: the engine's {@code GrpcDetector} with these settings (grpc-java's outlier detection, or the
     * go and core variants), so that a Java service can shadow grpc-java's decisions; the seed sets its enforcement
     * draws.
     */
    public static LivePoolBuilder grpc(String name, GrpcOutlierConfig config) {
        Objects.requireNonNull(config, "config");
        LivePoolBuilder b = new LivePoolBuilder(name);
        b.detectorFactory = sink ->
                new GrpcPoolDetector(config, new SeededRandom(b.seed != null ? b.seed : b.clock.nanoTime()), sink);
        return b;
    }

    /**
     * The gateway profile (seed 004): the engine's gateway detector with these settings; the pool starts in
     * the settings' mode. {@code processes} does not apply: each JVM is one process with its own samples.
     */
    public static LivePoolBuilder gateway(String name, GatewayConfig config) {
        Objects.requireNonNull(config, "config");
        LivePoolBuilder b = new LivePoolBuilder(name);
        b.mode = config.mode();
        b.gateway = true;
        b.detectorFactory = sink -> new GatewayPoolDetector(config, b.maxEjectionPercent, sink);
        return b;
    }

    /**
     * The gateway profile's optional cap (the modelled gateway has none): an ejection that would put more than
     * this share of the endpoints out at once is refused and counted ({@code ejections_overflow}), as Envoy's
     * {@code max_ejection_percent} does. 100 (the default) is no cap. The Envoy profile's cap is
     * {@code max_ejection_percent} in its settings.
     */
    public LivePoolBuilder maxEjectionPercent(int percent) {
        if (!gateway) {
            throw new IllegalArgumentException("maxEjectionPercent is the gateway profile's cap; the Envoy profile's "
                    + "is max_ejection_percent in its OutlierDetectionConfig");
        }
        if (percent < 0 || percent > 100) {
            throw new InvalidConfigException(
                    "gateway.max_ejection_percent",
                    Integer.toString(percent),
                    "a whole percentage from 0 to 100 (100: no cap)");
        }
        this.maxEjectionPercent = percent;
        return this;
    }

    public LivePoolBuilder mode(StageMode value) {
        this.mode = Objects.requireNonNull(value, "mode");
        return this;
    }

    public LivePoolBuilder clock(LiveClock value) {
        this.clock = Objects.requireNonNull(value, "clock");
        return this;
    }

    /**
     * Stamps each outcome with the time it is drained instead of the time it is recorded: {@code record} then
     * reads no clock (a clock read is most of its cost: about 33 ns of CPU on the machine in the README), and an
     * outcome counts at the next drain, which a filter, the tick thread or a full ring triggers. Decisions then
     * match the lab only when every outcome is drained before the next one's time. Off by default.
     */
    public LivePoolBuilder stampOutcomesAtDrain() {
        this.stampAtRecord = false;
        return this;
    }

    public LivePoolBuilder seed(long value) {
        this.seed = value;
        return this;
    }

    public LivePoolBuilder endpoints(String... names) {
        endpoints.addAll(List.of(names));
        return this;
    }

    public LivePoolBuilder endpoints(List<String> names) {
        endpoints.addAll(names);
        return this;
    }

    /** Lanes of rings (each an owned and a shared ring), a power of two from 1 to 64. */
    public LivePoolBuilder stripes(int count) {
        requirePowerOfTwo("stripes", count, 64);
        this.stripes = count;
        return this;
    }

    /** Outcomes each ring holds, a power of two from 4 to 2^20. */
    public LivePoolBuilder ringCapacity(int perStripe) {
        requirePowerOfTwo("ring capacity", perStripe, 1 << 20);
        if (perStripe < 4) {
            throw new IllegalArgumentException("ring capacity must be at least 4, not " + perStripe);
        }
        this.ringCapacity = perStripe;
        return this;
    }

    /** Builds the pool, logging its {@link LivePool#warnings()} (System.Logger, WARNING) when it has endpoints. */
    public LivePool build() {
        LivePool pool = new LivePool(this);
        List<String> warnings = pool.warnings();
        if (!warnings.isEmpty()) {
            System.Logger log = System.getLogger(LivePool.class.getName());
            for (String w : warnings) {
                log.log(System.Logger.Level.WARNING, "outlier-lab pool " + name + ": " + w);
            }
        }
        return pool;
    }

    /**
     * Envoy reads every duration in whole milliseconds ({@code PROTOBUF_GET_MS_OR_DEFAULT}); a value in
     * nanoseconds under that (an interval of 10 meant as 10 s is 10 ns, and would tick without end) is refused,
     * naming the setting.
     */
    private static void requireWholeMilliseconds(OutlierDetectionConfig config) {
        for (OutlierSetting s : OutlierSetting.values()) {
            if (s.kind() != OutlierSetting.Kind.DURATION) {
                continue;
            }
            long v = config.get(s);
            boolean zeroAllowed = s == OutlierSetting.MAX_EJECTION_TIME_JITTER;
            if (v % 1_000_000L != 0 || (v == 0 && !zeroAllowed)) {
                throw new InvalidConfigException(
                        s.envoyName(),
                        Durations.format(v),
                        "a whole number of milliseconds"
                                + (zeroAllowed ? "" : ", at least 1ms") + " (Envoy reads durations in milliseconds); "
                                + "give durations as java.time.Duration: set(" + s.name()
                                + ", Duration.ofSeconds(10))");
            }
        }
    }

    private static void requirePowerOfTwo(String what, int value, int max) {
        if (value < 1 || value > max || Integer.bitCount(value) != 1) {
            throw new IllegalArgumentException(what + " " + value + " must be a power of two from 1 to " + max);
        }
    }

    private static int defaultStripes() {
        int wanted = Math.min(64, 2 * Runtime.getRuntime().availableProcessors());
        return Integer.highestOneBit(wanted - 1) << 1;
    }
}
