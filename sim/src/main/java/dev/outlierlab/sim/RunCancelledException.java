package dev.outlierlab.sim;

/**
 * Thrown by a {@link RunWatcher} to stop a run before it ends: the run is abandoned and has no result. The
 * message says why (a deadline, a client that went away), for the front end to pass on.
 */
public final class RunCancelledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RunCancelledException(String message) {
        super(message, null, false, false);
    }
}
