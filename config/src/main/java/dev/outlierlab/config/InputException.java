package dev.outlierlab.config;

import java.util.List;

/**
 * Bad input from a user: a file, a key, a value. The message is complete and meant to be shown as it is
 * (key, value, line where known, and what is allowed); front ends print it and exit with status 2, or answer
 * HTTP 400, never with a stack trace. A message may carry lines of detail (the first bad lines of a log, say):
 * a terminal shows each on a line of its own, so that a line break inside a value can still be shown as an
 * escape without flattening the message's own lines.
 */
public final class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String headline;
    private final List<String> details;

    public InputException(String message) {
        this(message, List.of());
    }

    /** A message followed by lines of detail; {@link #getMessage()} joins them with line breaks. */
    public InputException(String headline, List<String> details) {
        super(details.isEmpty() ? headline : headline + "\n  " + String.join("\n  ", details), null, false, false);
        this.headline = headline;
        this.details = List.copyOf(details);
    }

    /** The message without its lines of detail. */
    public String headline() {
        return headline;
    }

    /** The lines of detail, each to be shown on a line of its own (indented); empty for most messages. */
    public List<String> details() {
        return details;
    }
}
