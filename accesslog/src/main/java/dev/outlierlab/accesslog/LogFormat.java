package dev.outlierlab.accesslog;

/**
 * One access-log format: parses a line's bytes into a {@link ParsedLine}. Implementations are the compiled Envoy
 * format string ({@link TextLogFormat}) and JSON lines ({@link JsonLogFormat}).
 */
public interface LogFormat {
    /** The name shown in messages, e.g. {@code envoy} or {@code format string "..."}. */
    String name();

    /**
     * Parses {@code b[start, end)} (one line without its newline) into {@code out}.
     *
     * @return false when the line does not fit the format; {@link ParsedLine#error()} says why
     */
    boolean parse(byte[] b, int start, int end, ParsedLine out);
}
