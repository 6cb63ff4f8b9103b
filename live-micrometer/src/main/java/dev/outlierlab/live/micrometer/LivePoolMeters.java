package dev.outlierlab.live.micrometer;

import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.PoolCounters;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Micrometer meters for a {@link LivePool}, every one tagged {@code pool}. The profile's own statistics keep
 * their names under {@code outlier_detection.}: for the Envoy profile Envoy's
 * ({@code outlier_detection.ejections_active} gauge, {@code outlier_detection.ejections_enforced_total},
 * {@code outlier_detection.ejections_detected_success_rate}, ... counters, as
 * {@code cluster.<name>.outlier_detection.*} in Envoy), for the gateway profile its ejection counts. The
 * stage counters ({@code outlier_lab.stage} with tag {@code action}: eject, kept_all, would_eject) and the
 * outcome counters ({@code outlier_lab.outcomes} with tag {@code result}: recorded, applied, discarded,
 * ignored_off) apply to both. Meters read the pool when they are scraped; nothing is added to the
 * recording path.
 */
public final class LivePoolMeters {
    private LivePoolMeters() {
    }

    /** Registers the pool's meters; returns the tags they carry. */
    public static Tags bind(LivePool pool, MeterRegistry registry) {
        Tags tags = Tags.of(Tag.of("pool", pool.name()), Tag.of("profile", pool.profile()));
        for (String stat : pool.snapshot().detectorStats().keySet()) {
            String name = "outlier_detection." + stat;
            ToDoubleFunction<LivePool> read = p -> p.snapshot().detectorStats().getOrDefault(stat, 0L);
            if (stat.equals("ejections_active")) {
                Gauge.builder(name, pool, read).tags(tags).description("endpoints ejected now").register(registry);
            } else {
                FunctionCounter.builder(name, pool, read).tags(tags).register(registry);
            }
        }
        stage(registry, pool, tags, "eject", PoolCounters::stageEject);
        stage(registry, pool, tags, "kept_all", PoolCounters::stageKeptAll);
        stage(registry, pool, tags, "would_eject", PoolCounters::stageWouldEject);
        outcomes(registry, pool, tags, "recorded", PoolCounters::accepted);
        outcomes(registry, pool, tags, "applied", PoolCounters::applied);
        outcomes(registry, pool, tags, "discarded", PoolCounters::discarded);
        outcomes(registry, pool, tags, "ignored_off", PoolCounters::ignoredOff);
        FunctionCounter.builder("outlier_lab.requests.filtered", pool, p -> p.counters().filtered()).tags(tags)
                .description("requests whose candidates went through the stage").register(registry);
        for (String mode : List.of("off", "shadow", "prod")) {
            Gauge.builder("outlier_lab.mode", pool, p -> p.mode().configName().equals(mode) ? 1 : 0)
                    .tags(tags.and("mode", mode)).description("1 for the pool's current mode").register(registry);
        }
        return tags;
    }

    private static void stage(MeterRegistry registry, LivePool pool, Tags tags, String action,
            ToDoubleFunction<PoolCounters> read) {
        FunctionCounter.builder("outlier_lab.stage", pool, p -> read.applyAsDouble(p.counters()))
                .tags(tags.and("action", action)).description("stage records by action").register(registry);
    }

    private static void outcomes(MeterRegistry registry, LivePool pool, Tags tags, String result,
            ToDoubleFunction<PoolCounters> read) {
        FunctionCounter.builder("outlier_lab.outcomes", pool, p -> read.applyAsDouble(p.counters()))
                .tags(tags.and("result", result)).description("outcomes by what became of them").register(registry);
    }
}
