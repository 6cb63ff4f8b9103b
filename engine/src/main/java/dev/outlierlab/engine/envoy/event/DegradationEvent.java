package dev.outlierlab.engine.envoy.event;

/**
 * A host marked degraded by outlier detection, or cleared: Envoy 1.38's {@code detect_degraded_hosts}
 * (envoyproxy/envoy pull 41852), which sets and clears the host health flag {@code DEGRADED_OUTLIER_DETECTION}. A
 * degraded host stays in rotation at a lower priority; it is never ejected by this and never counts in
 * {@code ejections_active}.
 *
 * @param timeNanos       when it happened
 * @param host            the host
 * @param degraded        true when the host was marked degraded, false when the mark was cleared
 * @param numDegradations how many times the host has been marked degraded, this one included
 * @param multiplier      its degradation multiplier ({@code degradeTimeBackoff}) after the change
 * @param durationNanos   for a mark, how long it lasts at least ({@code min(base * multiplier, max) + jitter});
 *                        for a clearing, how long the host was degraded
 * @param numEjections    the host's ejection count, which Envoy's {@code logUneject} writes for a clearing
 */
public record DegradationEvent(
        long timeNanos,
        String host,
        boolean degraded,
        long numDegradations,
        long multiplier,
        long durationNanos,
        long numEjections) {

    /** The lower-case action used in JSON output: {@code degrade} or {@code undegrade}. */
    public String jsonName() {
        return degraded ? "degrade" : "undegrade";
    }
}
