package dev.outlierlab.live.httpclient;

import java.io.IOException;

/**
 * The client's own limit stopped a request, not the upstream: the bytes of answers being read at once would
 * pass the client's bound, or the client ran out of memory. Nothing is recorded against the upstream (a
 * healthy upstream must not be ejected for the proxy's own trouble); the proxy answers 503.
 */
public final class ProxyOverloadedException extends IOException {
    private static final long serialVersionUID = 1L;

    ProxyOverloadedException(String message, Throwable cause) {
        super(message, cause);
    }
}
