package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.envoy.OutlierSetting;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.ClusterSpec;
import dev.outlierlab.sim.scenario.FaultSpec;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.scenario.TrafficSpec;
import java.util.ArrayList;
import java.util.List;

/** Builders for the simulator's tests. */
final class Scenarios {
    static final long S = 1_000_000_000L;
    static final long MS = 1_000_000L;

    private Scenarios() {}

    static Scenario scenario(
            int hosts,
            double panicThreshold,
            long rps,
            long durationNanos,
            List<FaultSpec> faults,
            OutlierDetectionConfig config,
            HealthCheckSpec healthChecks) {
        return Scenario.builder()
                .name("test")
                .durationNanos(durationNanos)
                .seed(1)
                .cluster(ClusterSpec.ofCount(hosts, panicThreshold))
                .traffic(new TrafficSpec(rps))
                .faults(faults)
                .outlierDetection(config)
                .healthChecks(healthChecks)
                .build();
    }

    /** A fault on the first {@code count} hosts. */
    static FaultSpec fault(int count, long startNanos, long endNanos, long ppm, int status) {
        return FaultSpec.builder()
                .hosts(firstHosts(count))
                .window(startNanos, endNanos)
                .errorRatePpm(ppm)
                .status(status)
                .build();
    }

    static List<String> firstHosts(int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add("host-" + i);
        }
        return names;
    }

    /** Envoy's defaults with overrides (pairs of setting and value). */
    static OutlierDetectionConfig config(Object... settingsAndValues) {
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        for (int i = 0; i < settingsAndValues.length; i += 2) {
            OutlierSetting s = (OutlierSetting) settingsAndValues[i];
            Object v = settingsAndValues[i + 1];
            if (v instanceof Boolean flag) {
                b.set(s, flag);
            } else {
                b.set(s, ((Number) v).longValue());
            }
        }
        return b.build();
    }

    /** Times (ns) of the events with this action. */
    static List<Long> times(RunResult r, EventAction action) {
        return r.events().stream()
                .filter(e -> e.action() == action)
                .map(OutlierEvent::timeNanos)
                .toList();
    }

    static List<OutlierEvent> of(RunResult r, EventAction action) {
        return r.events().stream().filter(e -> e.action() == action).toList();
    }
}
