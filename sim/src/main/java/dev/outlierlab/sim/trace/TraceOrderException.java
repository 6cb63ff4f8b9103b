package dev.outlierlab.sim.trace;

/**
 * A trace record earlier than the one before it, or not before the scenario's duration. The message is
 * {@code line N: detail}; front ends that know the file name put it in front of {@link #line()} and
 * {@link #detail()}.
 */
public final class TraceOrderException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final long line;
    private final String detail;

    public TraceOrderException(long line, String detail) {
        super("line " + line + ": " + detail);
        this.line = line;
        this.detail = detail;
    }

    public long line() {
        return line;
    }

    /** What is wrong, without the line. */
    public String detail() {
        return detail;
    }
}
