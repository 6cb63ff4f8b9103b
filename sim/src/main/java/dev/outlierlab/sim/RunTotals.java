package dev.outlierlab.sim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a profile's detector counted over a run, for the run's summary and statistics: detections before the cap
 * and enforcement, ejections enforced, detections the cap refused, and the profile's counters by name, in the
 * profile's order.
 */
public record RunTotals(long detected, long enforced, long overflow, Map<String, Long> stats) {
    public RunTotals {
        stats = Collections.unmodifiableMap(new LinkedHashMap<>(stats)); // keeps the profile's order
    }
}
