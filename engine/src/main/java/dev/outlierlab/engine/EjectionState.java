package dev.outlierlab.engine;

/**
 * Which endpoints a detector holds out of rotation now. Endpoints are indexes from 0 to
 * {@link #endpointCount()} - 1 in the detector's order, which is the routing order.
 */
public interface EjectionState {
    int endpointCount();

    /** Whether the endpoint is ejected now (for a shadow detector: virtually ejected). */
    boolean isEjected(int endpoint);

    /**
     * Whether any endpoint may be ejected now: when false, a caller can skip asking each one. The default is
     * the safe answer, true; a detector that counts its ejections answers exactly.
     */
    default boolean anyEjected() {
        return true;
    }

    /**
     * A number that changes whenever any endpoint is ejected, returns, joins or leaves, so that a caller may
     * keep what it worked out from the ejections until it changes; negative when the state does not keep
     * one (the default), and then nothing may be kept.
     */
    default long ejectionVersion() {
        return -1;
    }
}
