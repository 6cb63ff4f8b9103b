package dev.outlierlab.engine;

/**
 * The contract every detector profile implements (Envoy's, the gateway's, later grpc-java's): take outcomes
 * ({@link OutcomeRecorder}), run work due at a time ({@link ScheduledWork}), say what is ejected
 * ({@link EjectionState}) and tell listeners of each ejection and return ({@link EjectionListener}). The
 * simulator, the request stage and the live wrapper know this contract and not a profile. Implementations
 * are driven from one thread with non-decreasing time and allocate nothing per outcome.
 */
public interface Detector extends OutcomeRecorder, ScheduledWork, EjectionState {
    /** Adds a listener for ejections and returns; listeners are called in the order they were added. */
    void addEjectionListener(EjectionListener listener);
}
