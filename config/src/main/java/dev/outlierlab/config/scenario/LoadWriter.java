package dev.outlierlab.config.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.sim.scenario.Arrivals;
import dev.outlierlab.sim.scenario.LoadSpec;
import dev.outlierlab.sim.scenario.RateStep;
import dev.outlierlab.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The opt-in load keys in file form, written only where they differ from the lab model's traffic, so that a
 * scenario without them is written exactly as before and {@link LoadReader} reads the output back.
 */
final class LoadWriter {
    private LoadWriter() {}

    static void put(Scenario s, Map<String, Object> cluster, Map<String, Object> traffic) {
        LoadSpec load = s.load();
        List<String> hosts = s.cluster().hosts();
        if (load.hasCapacity()) {
            cluster.put("capacity", perHost(load.capacityRps(), hosts));
        }
        if (load.overloadResult() != null) {
            cluster.put("overload_response", "timeout");
        } else if (load.overloadStatus() != 503) {
            cluster.put("overload_response", (long) load.overloadStatus());
        }
        if (!load.weights().isEmpty()) {
            cluster.put("weights", perHost(load.weights(), hosts));
        }
        if (load.arrivals() != Arrivals.EVEN) {
            traffic.put("arrivals", load.arrivals().fileName());
        }
        if (!load.steps().isEmpty()) {
            List<Object> steps = new ArrayList<>();
            for (RateStep step : load.steps()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("at", Durations.format(step.atNanos()));
                m.put("rps", step.rps());
                steps.add(m);
            }
            traffic.put("steps", steps);
        }
    }

    /** One number when every host has the same, else a mapping of the hosts that have one. */
    private static Object perHost(Map<String, Long> values, List<String> hosts) {
        if (values.size() == hosts.size() && new HashSet<>(values.values()).size() == 1) {
            return values.values().iterator().next();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (String h : hosts) {
            if (values.containsKey(h)) {
                m.put(h, values.get(h));
            }
        }
        return m;
    }
}
