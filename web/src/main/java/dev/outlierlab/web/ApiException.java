package dev.outlierlab.web;

/**
 * A request the lab's API refuses: the HTTP status and a complete message for the person who sent it,
 * answered as {@code {"error": "..."}}. Never carries a stack trace to the client.
 */
final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;

    ApiException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static ApiException badRequest(String message) {
        return new ApiException(400, message);
    }

    int status() {
        return status;
    }
}
