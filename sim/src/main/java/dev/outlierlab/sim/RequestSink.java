package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.RequestResult;

/**
 * Receives every synthetic request of a run as it is sent, for writers of the traffic (such as an access log).
 * Called once per request in send order, after the request's outcome was reported to the detector.
 */
@FunctionalInterface
public interface RequestSink {
    RequestSink NONE = (nanos, host, code, result) -> { };

    /**
     * @param host the host's index, or -1 when no host was eligible (Envoy's "no healthy upstream")
     * @param code the HTTP status the host answered (200, or the fault's status), 503 with no host
     * @param result the fault's local-origin result, or null when the host answered with {@code code}
     */
    void onRequest(long nanos, int host, int code, RequestResult result);
}
