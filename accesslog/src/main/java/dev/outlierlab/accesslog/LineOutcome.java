package dev.outlierlab.accesslog;

import dev.outlierlab.engine.envoy.RequestResult;

/**
 * What Envoy's outlier detector saw for one access-log line, as {@link OutcomeMapping} derives it: the calls
 * Envoy's HTTP router made for the request's last attempt, or why the line reports nothing to a host.
 */
public enum LineOutcome {
    /** The upstream answered: a connect success, then {@code putHttpResponseCode(code)}. */
    RESPONSE(true, null, true),
    /** {@code UT}: a connect success, then {@code putResult(LOCAL_ORIGIN_TIMEOUT, code)}. */
    TIMEOUT(true, RequestResult.LOCAL_ORIGIN_TIMEOUT, true),
    /** {@code UF}: the pool failed to connect, {@code putResult(LOCAL_ORIGIN_CONNECT_FAILED)} only. */
    CONNECT_FAILED(false, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, true),
    /** {@code UC}, {@code UR}, {@code LR}, {@code UPE}: a connect success, then the reset's connect failure. */
    RESET(true, RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, true),
    /** {@code UMSDR}, or {@code DC} before a response: only the connect success reached the detector. */
    CONNECTED_ONLY(false, RequestResult.LOCAL_ORIGIN_CONNECT_SUCCESS, true),
    /** No upstream host ({@code UH}, {@code NR}, {@code RL}, {@code FI}, ... or {@code -}): skipped, counted. */
    NO_UPSTREAM_HOST(false, null, false),
    /** A host but response code 0 and no flag that reports to the detector: skipped, counted. */
    NO_RESPONSE(false, null, false);

    private final boolean connected;
    private final RequestResult result;
    private final boolean reported;

    LineOutcome(boolean connected, RequestResult result, boolean reported) {
        this.connected = connected;
        this.result = result;
        this.reported = reported;
    }

    /** Whether a connect success is reported first. */
    public boolean connected() {
        return connected;
    }

    /** The {@code putResult} result, or null for a plain response code. */
    public RequestResult result() {
        return result;
    }

    /** Whether the line reaches the detector at all. */
    public boolean reported() {
        return reported;
    }
}
