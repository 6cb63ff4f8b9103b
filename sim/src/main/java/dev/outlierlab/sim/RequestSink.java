package dev.outlierlab.sim;

import dev.outlierlab.sim.scenario.FaultResult;

/**
 * Receives every synthetic request of a run as it is sent, for writers of the traffic (such as an access log).
 * Called once per request in send order, after the request's outcome was reported to the detector.
 */
@FunctionalInterface
public interface RequestSink {
    RequestSink NONE = (nanos, host, code, result) -> {};

    /**
     * @param host the host's index, or -1 when no host was eligible (Envoy's "no healthy upstream")
     * @param code the HTTP status the host answered (200, or the fault's status), 503 with no host
     * @param result how the fault failed the request as a local-origin result (a timeout, a connect failure, a
     *               reset), or null when the host answered with {@code code}
     */
    void onRequest(long nanos, int host, int code, FaultResult result);

    /**
     * The same, with the caller (from 0) that sent the request; by default the caller is not looked at.
     */
    default void onRequest(int client, long nanos, int host, int code, FaultResult result) {
        onRequest(nanos, host, code, result);
    }
}
