package dev.outlierlab.engine;

/**
 * Which endpoints a detector holds out of rotation now. Endpoints are indexes from 0 to
 * {@link #endpointCount()} - 1 in the detector's order, which is the routing order.
 */
public interface EjectionState {
    int endpointCount();

    /** Whether the endpoint is ejected now (for a shadow detector: virtually ejected). */
    boolean isEjected(int endpoint);
}
