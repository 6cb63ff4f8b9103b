package dev.outlierlab.live;

import dev.outlierlab.engine.Outcome;

/**
 * An attempt that ended without an HTTP status, as the engine's {@link Outcome} codes name it. Each profile
 * maps it the way its source does: for Envoy, a timeout is {@code LOCAL_ORIGIN_TIMEOUT} and a refused
 * connection or a reset is {@code LOCAL_ORIGIN_CONNECT_FAILED} (Envoy's router reports an upstream reset
 * that way); for the gateway profile every one of them is a failure.
 */
public enum LocalFailure {
    TIMEOUT(Outcome.TIMEOUT),
    CONNECT_FAILED(Outcome.CONNECT_FAILED),
    RESET(Outcome.RESET);

    private final int code;

    LocalFailure(int code) {
        this.code = code;
    }

    /** The engine's {@link Outcome} code. */
    public int code() {
        return code;
    }

    /** The name in output: {@code timeout}, {@code connect_failed}, {@code reset}. */
    public String wireName() {
        return Outcome.name(code);
    }
}
