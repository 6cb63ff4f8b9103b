package dev.outlierlab.engine.envoy.event;

/**
 * Receives the detector's decisions as they happen, on the caller's thread. Interval evaluations are only
 * built when {@link #wantsIntervals()} says so, to keep ticks cheap for callers that do not chart them.
 */
public interface DetectorListener {
    /** A listener that ignores everything. */
    DetectorListener NONE = event -> {};

    void onEvent(OutlierEvent event);

    default boolean wantsIntervals() {
        return false;
    }

    default void onInterval(IntervalEvaluation evaluation) {}

    /** A host marked degraded or cleared ({@code detect_degraded_hosts}, Envoy 1.38); ignored unless overridden. */
    default void onDegradation(DegradationEvent event) {}
}
