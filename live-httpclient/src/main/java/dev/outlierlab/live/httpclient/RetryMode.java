package dev.outlierlab.live.httpclient;

import java.util.Locale;
import java.util.Set;

/**
 * Whether a request whose attempt failed may go to another upstream. The default, {@link #BY_METHOD}, re-sends
 * only what is safe to send twice: an idempotent method (RFC 9110 section 9.2.2: GET, HEAD, OPTIONS, TRACE,
 * PUT, DELETE) after any failure, and any method whose attempt failed to connect (it never reached the
 * upstream, as Envoy's {@code retry_on: reset-before-request} and gRPC's transparent retry assume). A POST
 * answered 503, timed out or reset is not re-sent. Per request, {@link #ALWAYS} marks it safe to re-send (an
 * idempotency key, say) and {@link #NEVER} keeps it on its first upstream.
 */
public enum RetryMode {
    BY_METHOD,
    ALWAYS,
    NEVER;

    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");

    /** Whether RFC 9110 calls the method idempotent. */
    public static boolean isIdempotent(String method) {
        return IDEMPOTENT.contains(method.toUpperCase(Locale.ROOT));
    }

    /** Whether a request of {@code method} may be re-sent after an attempt that failed as said. */
    boolean mayResend(String method, boolean connectFailed) {
        return switch (this) {
            case ALWAYS -> true;
            case NEVER -> false;
            case BY_METHOD -> connectFailed || isIdempotent(method);
        };
    }
}
