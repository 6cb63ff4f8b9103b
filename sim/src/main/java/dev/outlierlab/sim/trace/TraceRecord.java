package dev.outlierlab.sim.trace;

import dev.outlierlab.engine.envoy.RequestResult;

/**
 * One observed outcome for replay: at {@code timeNanos}, host number {@code host} (index into the
 * scenario's host list) answered with HTTP {@code code} (or -1), or had the non-HTTP {@code result} (or
 * null), as Envoy's {@code putHttpResponseCode} / {@code putResult(result, code)} take them.
 *
 * @param line the line of the trace file it came from, for messages
 * @param connected whether a {@code LOCAL_ORIGIN_CONNECT_SUCCESS} is reported first, as Envoy's HTTP router
 *                  does when the connection pool hands over a stream ({@code UpstreamRequest::onPoolReady});
 *                  outcome traces report exactly what they say and leave it false, access logs set it for
 *                  every request that reached an upstream connection
 */
public record TraceRecord(long timeNanos, int host, int code, RequestResult result, long line, boolean connected) {
    public TraceRecord {
        if (code < 0 && result == null) {
            throw new IllegalArgumentException("a trace record needs a code or a result");
        }
    }

    /** A record reported exactly as given (outcome traces). */
    public TraceRecord(long timeNanos, int host, int code, RequestResult result, long line) {
        this(timeNanos, host, code, result, line, false);
    }

    /** Whether this outcome is a failure as a user would count it: a 5xx, or a failing result. */
    public boolean isFailure() {
        return isFailure(code, result);
    }

    /** {@link #isFailure()} of a record with this code and result. */
    public static boolean isFailure(int code, RequestResult result) {
        if (result == null) {
            return code >= 500 && code <= 599;
        }
        return switch (result) {
            case LOCAL_ORIGIN_CONNECT_FAILED, LOCAL_ORIGIN_TIMEOUT, EXT_ORIGIN_REQUEST_FAILED -> true;
            default -> code >= 500 && code <= 599;
        };
    }
}
