package dev.outlierlab.accesslog;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The access-log formats recognised by name and tried, in this order, when a log's format is not given: Envoy's
 * default text format ({@code source/common/formatter/substitution_format_string.cc}, {@code DEFAULT_FORMAT})
 * and Istio's default text formats as istiod configures them ({@code pilot/pkg/model/telemetry_logging.go},
 * {@code EnvoyTextLogFormat}, and the mesh config of older releases), then JSON lines.
 */
public final class KnownFormats {
    /** Envoy's default format (every release since v1.x; the writer uses it with nanosecond START_TIME). */
    public static final String ENVOY =
            "[%START_TIME%] \"%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%\" "
                    + "%RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% "
                    + "%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% \"%REQ(X-FORWARDED-FOR)%\" \"%REQ(USER-AGENT)%\" "
                    + "\"%REQ(X-REQUEST-ID)%\" \"%REQ(:AUTHORITY)%\" \"%UPSTREAM_HOST%\"\n";

    /** Istio 1.9 and later (1.9 to 1.2x wrote %UPSTREAM_CLUSTER%, later ones %UPSTREAM_CLUSTER_RAW%: same shape). */
    public static final String ISTIO =
            "[%START_TIME%] \"%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%\" "
                    + "%RESPONSE_CODE% %RESPONSE_FLAGS% %RESPONSE_CODE_DETAILS% %CONNECTION_TERMINATION_DETAILS% "
                    + "\"%UPSTREAM_TRANSPORT_FAILURE_REASON%\" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% "
                    + "%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% \"%REQ(X-FORWARDED-FOR)%\" \"%REQ(USER-AGENT)%\" "
                    + "\"%REQ(X-REQUEST-ID)%\" \"%REQ(:AUTHORITY)%\" \"%UPSTREAM_HOST%\" %UPSTREAM_CLUSTER_RAW% "
                    + "%UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% "
                    + "%REQUESTED_SERVER_NAME% %ROUTE_NAME%\n";

    /** Istio 1.5 to 1.8, with Mixer's policy status where 1.9 put the response code details. */
    public static final String ISTIO_1_5 =
            "[%START_TIME%] \"%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%\" "
                    + "%RESPONSE_CODE% %RESPONSE_FLAGS% \"%DYNAMIC_METADATA(istio.mixer:status)%\" "
                    + "\"%UPSTREAM_TRANSPORT_FAILURE_REASON%\" %BYTES_RECEIVED% %BYTES_SENT% %DURATION% "
                    + "%RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% \"%REQ(X-FORWARDED-FOR)%\" \"%REQ(USER-AGENT)%\" "
                    + "\"%REQ(X-REQUEST-ID)%\" \"%REQ(:AUTHORITY)%\" \"%UPSTREAM_HOST%\" %UPSTREAM_CLUSTER% "
                    + "%UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% "
                    + "%REQUESTED_SERVER_NAME% %ROUTE_NAME%\n";

    /** Named text formats, in the order detection tries them. */
    public static final Map<String, String> TEXT = new LinkedHashMap<>();

    static {
        TEXT.put("envoy", ENVOY);
        TEXT.put("istio", ISTIO);
        TEXT.put("istio-1.5", ISTIO_1_5);
    }

    /** Every name {@code --log-format} takes. */
    public static final String NAMES = "envoy, istio (1.9 and later), istio-1.5 (1.5 to 1.8), json";

    private KnownFormats() {}
}
