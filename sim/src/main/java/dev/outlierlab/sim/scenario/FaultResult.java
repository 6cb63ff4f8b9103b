package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.envoy.RequestResult;
import java.util.Locale;

/**
 * How a fault fails a request when it fails it as a local-origin result rather than an HTTP status, and what
 * Envoy's HTTP router then reports to the host's outlier monitor (docs/model.md). The router reports a connect
 * success when the connection pool hands over a stream ({@code UpstreamRequest::onPoolReady}), then the outcome:
 * a timeout as {@code LOCAL_ORIGIN_TIMEOUT} with code 504 ({@code onResponseTimeout}, {@code onPerTryTimeout}),
 * a reset as {@code LOCAL_ORIGIN_CONNECT_FAILED} ({@code onUpstreamReset}). A connection that cannot be made
 * reports the connect failure alone.
 */
public enum FaultResult {
    TIMEOUT(RequestResult.LOCAL_ORIGIN_TIMEOUT, 504, true),
    CONNECT_FAILED(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, -1, false),
    RESET(RequestResult.LOCAL_ORIGIN_CONNECT_FAILED, -1, true),
    EXT_FAILED(RequestResult.EXT_ORIGIN_REQUEST_FAILED, -1, true);

    private final RequestResult reported;
    private final int code;
    private final boolean streamObtained;

    FaultResult(RequestResult reported, int code, boolean streamObtained) {
        this.reported = reported;
        this.code = code;
        this.streamObtained = streamObtained;
    }

    /** The result Envoy's router passes to {@code putResult}. */
    public RequestResult reported() {
        return reported;
    }

    /** The code passed with it (504 for a timeout), or -1 for none. */
    public int code() {
        return code;
    }

    /** Whether a stream was obtained first, so that a connect success is reported before the outcome. */
    public boolean streamObtained() {
        return streamObtained;
    }

    /** The name in scenario files, e.g. {@code reset}. */
    public String traceName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The result with this scenario name, or null. */
    public static FaultResult byName(String name) {
        for (FaultResult r : values()) {
            if (r.traceName().equals(name)) {
                return r;
            }
        }
        return null;
    }

    /** The fault result that reports this Envoy result (connect failure: {@link #CONNECT_FAILED}), or null. */
    public static FaultResult of(RequestResult result) {
        if (result == null) {
            return null;
        }
        return switch (result) {
            case LOCAL_ORIGIN_TIMEOUT -> TIMEOUT;
            case LOCAL_ORIGIN_CONNECT_FAILED -> CONNECT_FAILED;
            case EXT_ORIGIN_REQUEST_FAILED -> EXT_FAILED;
            default -> throw new IllegalArgumentException("not a failure a fault can inject: " + result);
        };
    }
}
