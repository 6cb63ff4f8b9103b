package dev.outlierlab.engine;

/**
 * Receives a detector's decisions that change rotation, on the caller's thread, as they happen: an endpoint
 * ejected, an endpoint returned. Each profile also reports the numbers behind a decision through a listener
 * of its own (Envoy's {@code DetectorListener}, the gateway's {@code GatewayListener}); this one is what a
 * router, a chart or a live wrapper needs from any profile.
 */
public interface EjectionListener {
    /** A listener that ignores everything. */
    EjectionListener NONE = new EjectionListener() {
        @Override
        public void onEjected(int endpoint, long nowNanos) {}

        @Override
        public void onReturned(int endpoint, long nowNanos) {}
    };

    void onEjected(int endpoint, long nowNanos);

    void onReturned(int endpoint, long nowNanos);
}
