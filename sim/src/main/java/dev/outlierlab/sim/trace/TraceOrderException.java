package dev.outlierlab.sim.trace;

/** A trace record earlier than the one before it, or past the scenario's duration. */
public final class TraceOrderException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final long line;

    public TraceOrderException(long line, String message) {
        super(message);
        this.line = line;
    }

    public long line() {
        return line;
    }
}
