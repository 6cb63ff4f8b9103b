package dev.outlierlab.config;

/**
 * Bad input from a user: a file, a key, a value. The message is complete and meant to be shown as it is
 * (key, value, line where known, and what is allowed); front ends print it and exit with status 2, or answer
 * HTTP 400, never with a stack trace.
 */
public final class InputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InputException(String message) {
        super(message, null, false, false);
    }
}
