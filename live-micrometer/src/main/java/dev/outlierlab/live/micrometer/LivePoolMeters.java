package dev.outlierlab.live.micrometer;

import dev.outlierlab.live.EndpointState;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.PoolCounters;
import dev.outlierlab.live.PoolSnapshot;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters for a {@link LivePool}, under Envoy's names as its Prometheus endpoint writes them
 * ({@code /stats/prometheus}: {@code envoy_cluster_outlier_detection_ejections_active{envoy_cluster_name="..."}}),
 * so that a dashboard built for Envoy reads a Java service too. Every meter is tagged
 * {@code envoy_cluster_name} (the pool) and {@code profile}. The profile's statistics are
 * {@code envoy_cluster.outlier_detection.<stat>} (Envoy's {@code ejections_active} gauge,
 * {@code ejections_enforced_total}, {@code ejections_detected_consecutive_5xx}, ... counters; the gateway
 * profile's own counts under the same prefix); per endpoint (tag {@code endpoint}),
 * {@code envoy_cluster.outlier_detection.host.ejected} (1 while held ejected, virtually in shadow) and
 * {@code envoy_cluster.outlier_detection.host.ejections}. The lab's own counters:
 * {@code outlier_lab.stage.requests} (tag {@code action}: requests whose stage acted, not ejections),
 * {@code outlier_lab.outcomes} (tag {@code result}), {@code outlier_lab.requests.filtered},
 * {@code outlier_lab.listener.errors} and the {@code outlier_lab.mode} gauge. A scrape reads one snapshot of
 * the pool (one lock, taken at most once per {@code maxAge}, 1 s by default), not one per meter; endpoint meters
 * follow the pool's membership at each snapshot. Nothing is added to the recording path.
 */
public final class LivePoolMeters {
    private static final String PREFIX = "envoy_cluster.outlier_detection.";

    private final LivePool pool;
    private final MeterRegistry registry;
    private final Tags tags;
    private final long maxAgeNanos;
    private final Map<String, List<Meter>> endpointMeters = new HashMap<>();
    private PoolSnapshot snapshot;
    private long takenAtNanos;
    private long snapshots;

    private LivePoolMeters(LivePool pool, MeterRegistry registry, Duration maxAge) {
        this.pool = pool;
        this.registry = registry;
        this.tags = Tags.of(Tag.of("envoy_cluster_name", pool.name()), Tag.of("profile", pool.profile()));
        this.maxAgeNanos = maxAge.toNanos();
    }

    /** Registers the pool's meters, reading a snapshot at most once a second; returns the tags they carry. */
    public static Tags bind(LivePool pool, MeterRegistry registry) {
        return bind(pool, registry, Duration.ofSeconds(1)).tags;
    }

    /** Registers the pool's meters, reading a snapshot at most once per {@code maxAge} (zero: at every read). */
    public static LivePoolMeters bind(LivePool pool, MeterRegistry registry, Duration maxAge) {
        Objects.requireNonNull(pool, "pool");
        if (maxAge.isNegative()) {
            throw new IllegalArgumentException("maxAge " + maxAge + " must be zero or more");
        }
        LivePoolMeters m = new LivePoolMeters(pool, registry, maxAge);
        m.register();
        return m;
    }

    public Tags tags() {
        return tags;
    }

    /** How many snapshots the meters have taken of the pool. */
    public synchronized long snapshotsTaken() {
        return snapshots;
    }

    // Micrometer holds a meter's object weakly and its function strongly: the object is the pool (the caller
    // holds it), and each function reaches this binder, so the binder lives as long as its meters.
    private void register() {
        for (String stat : snapshot().detectorStats().keySet()) {
            ToDoubleFunction<LivePool> read = p -> snapshot().detectorStats().getOrDefault(stat, 0L);
            if (stat.equals("ejections_active")) {
                Gauge.builder(PREFIX + stat, pool, read)
                        .tags(tags)
                        .description("endpoints ejected now")
                        .register(registry);
            } else {
                FunctionCounter.builder(PREFIX + stat, pool, read).tags(tags).register(registry);
            }
        }
        stage("eject", PoolCounters::stageEject);
        stage("kept_all", PoolCounters::stageKeptAll);
        stage("would_eject", PoolCounters::stageWouldEject);
        outcomes("recorded", PoolCounters::accepted);
        outcomes("applied", PoolCounters::applied);
        outcomes("discarded", PoolCounters::discarded);
        outcomes("ignored_off", PoolCounters::ignoredOff);
        FunctionCounter.builder(
                        "outlier_lab.requests.filtered",
                        pool,
                        p -> snapshot().counters().filtered())
                .tags(tags)
                .description("requests whose candidates went through the stage")
                .register(registry);
        FunctionCounter.builder(
                        "outlier_lab.listener.errors",
                        pool,
                        p -> snapshot().counters().listenerErrors())
                .tags(tags)
                .description("exceptions and errors thrown by listeners, caught")
                .register(registry);
        for (String mode : List.of("off", "shadow", "prod")) {
            Gauge.builder(
                            "outlier_lab.mode",
                            pool,
                            p -> snapshot().mode().configName().equals(mode) ? 1 : 0)
                    .tags(tags.and("mode", mode))
                    .description("1 for the pool's current mode")
                    .register(registry);
        }
    }

    private void stage(String action, ToDoubleFunction<PoolCounters> read) {
        FunctionCounter.builder(
                        "outlier_lab.stage.requests",
                        pool,
                        p -> read.applyAsDouble(snapshot().counters()))
                .tags(tags.and("action", action))
                .description("requests whose stage acted, by action")
                .register(registry);
    }

    private void outcomes(String result, ToDoubleFunction<PoolCounters> read) {
        FunctionCounter.builder(
                        "outlier_lab.outcomes",
                        pool,
                        p -> read.applyAsDouble(snapshot().counters()))
                .tags(tags.and("result", result))
                .description("outcomes by what became of them")
                .register(registry);
    }

    /** The pool's snapshot, taken again when older than the maximum age; endpoint meters follow its members. */
    synchronized PoolSnapshot snapshot() {
        long now = System.nanoTime();
        if (snapshot == null || now - takenAtNanos >= maxAgeNanos) {
            snapshot = pool.snapshot();
            takenAtNanos = now;
            snapshots++;
            followMembers(snapshot);
        }
        return snapshot;
    }

    private void followMembers(PoolSnapshot s) {
        Map<String, EndpointState> current = new HashMap<>();
        for (EndpointState e : s.endpoints()) {
            current.put(e.name(), e);
        }
        endpointMeters.entrySet().removeIf(entry -> {
            if (current.containsKey(entry.getKey())) {
                return false;
            }
            entry.getValue().forEach(registry::remove);
            return true;
        });
        for (String name : current.keySet()) {
            if (endpointMeters.containsKey(name)) {
                continue;
            }
            Tags t = tags.and("endpoint", name);
            Meter ejected = Gauge.builder(PREFIX + "host.ejected", pool, p -> endpointValue(name, true))
                    .tags(t)
                    .description("1 while the endpoint is held ejected (virtually in shadow)")
                    .register(registry);
            Meter ejections = FunctionCounter.builder(PREFIX + "host.ejections", pool, p -> endpointValue(name, false))
                    .tags(t)
                    .description("ejections of the endpoint since the pool started")
                    .register(registry);
            endpointMeters.put(name, List.of(ejected, ejections));
        }
    }

    private double endpointValue(String name, boolean ejectedNow) {
        for (EndpointState e : snapshot().endpoints()) {
            if (e.name().equals(name)) {
                return ejectedNow ? (e.ejected() ? 1 : 0) : e.ejections();
            }
        }
        return 0;
    }
}
