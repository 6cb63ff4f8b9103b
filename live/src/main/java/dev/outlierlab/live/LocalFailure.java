package dev.outlierlab.live;

/**
 * An attempt that ended without an HTTP status. Each profile maps it the way its source does: for Envoy,
 * a timeout is {@code LOCAL_ORIGIN_TIMEOUT} and a refused connection or a reset is
 * {@code LOCAL_ORIGIN_CONNECT_FAILED} (Envoy's router reports an upstream reset that way); for the gateway
 * profile every one of them is a failure.
 */
public enum LocalFailure {
    TIMEOUT(-1),
    CONNECT_FAILED(-2),
    RESET(-3);

    private final int code;

    LocalFailure(int code) {
        this.code = code;
    }

    /** The negative code under which the outcome travels through the ring. */
    int code() {
        return code;
    }

    /** The failure with this code, or null for a status code (at least 0). */
    static LocalFailure ofCode(int code) {
        return switch (code) {
            case -1 -> TIMEOUT;
            case -2 -> CONNECT_FAILED;
            case -3 -> RESET;
            default -> null;
        };
    }
}
