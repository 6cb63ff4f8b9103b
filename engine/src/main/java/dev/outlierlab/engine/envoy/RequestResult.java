package dev.outlierlab.engine.envoy;

import java.util.Locale;

/**
 * A non-HTTP outcome reported to a host's monitor: Envoy's {@code Outlier::Result}, as the router and TCP
 * proxy pass it to {@code putResult}. Without {@code split_external_local_origin_errors} these are mapped to
 * HTTP codes (timeout 504, connect failure 503, external failure 500, success 200, connect success ignored);
 * with it, local-origin results feed their own counters.
 */
public enum RequestResult {
    LOCAL_ORIGIN_CONNECT_FAILED("connect_failed"),
    LOCAL_ORIGIN_TIMEOUT("timeout"),
    LOCAL_ORIGIN_CONNECT_SUCCESS("connect_success"),
    LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL("connect_success_final"),
    EXT_ORIGIN_REQUEST_FAILED("ext_failed"),
    EXT_ORIGIN_REQUEST_SUCCESS("ext_success");

    private final String traceName;

    RequestResult(String traceName) {
        this.traceName = traceName;
    }

    /** The short name used in outcome traces, e.g. {@code timeout}. */
    public String traceName() {
        return traceName;
    }

    /** The result with this trace name (case-insensitive), or null. */
    public static RequestResult byTraceName(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (RequestResult r : values()) {
            if (r.traceName.equals(lower)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Envoy's {@code resultToHttpCode}: the HTTP code this result stands for when origins are not split, or
     * -1 for {@link #LOCAL_ORIGIN_CONNECT_SUCCESS}, which is not reported at all.
     */
    public int httpCodeWhenNotSplit() {
        return switch (this) {
            case EXT_ORIGIN_REQUEST_SUCCESS, LOCAL_ORIGIN_CONNECT_SUCCESS_FINAL -> 200;
            case LOCAL_ORIGIN_TIMEOUT -> 504;
            case LOCAL_ORIGIN_CONNECT_FAILED -> 503;
            case EXT_ORIGIN_REQUEST_FAILED -> 500;
            case LOCAL_ORIGIN_CONNECT_SUCCESS -> -1;
        };
    }
}
