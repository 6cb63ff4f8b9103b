package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.FailureClassifier;
import dev.outlierlab.live.LivePool;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * Builds a {@link FailoverClient}: the JDK client to send with (default: one of its own, HTTP/1.1, connect
 * timeout the attempt timeout), each attempt's timeout (default 5 s), fallbacks (extra attempts, default 1),
 * the response body limit (default 16 MiB), the {@link FailureClassifier} (default: 5xx fails), the
 * {@link Routing} (default: by the pool's profile), the default {@link RetryMode} ({@link RetryMode#BY_METHOD})
 * and whether the caller's {@code Host} goes to the upstream (default: no).
 * Each setter checks its value and names the setting when it refuses one.
 */
public final class FailoverClientBuilder {
    final LivePool pool;
    HttpClient http;
    Duration attemptTimeout = Duration.ofSeconds(5);
    int fallbacks = 1;
    long maxResponseBytes = FailoverClient.DEFAULT_MAX_RESPONSE_BYTES;
    FailureClassifier classifier = FailureClassifier.defaults();
    Routing routing;
    RetryMode retry = RetryMode.BY_METHOD;
    boolean forwardHost;

    FailoverClientBuilder(LivePool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** The JDK client to send with; null for one of the client's own. */
    public FailoverClientBuilder http(HttpClient value) {
        this.http = value;
        return this;
    }

    public FailoverClientBuilder attemptTimeout(Duration value) {
        Objects.requireNonNull(value, "attemptTimeout");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(
                    "attemptTimeout " + value + " must be positive, such as Duration.ofSeconds(5)");
        }
        this.attemptTimeout = value;
        return this;
    }

    public FailoverClientBuilder fallbacks(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("fallbacks " + value + " must be 0 or more");
        }
        this.fallbacks = value;
        return this;
    }

    public FailoverClientBuilder maxResponseBytes(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("maxResponseBytes " + value + " must be 0 or more");
        }
        this.maxResponseBytes = value;
        return this;
    }

    public FailoverClientBuilder classifier(FailureClassifier value) {
        this.classifier = Objects.requireNonNull(value, "classifier");
        return this;
    }

    public FailoverClientBuilder routing(Routing value) {
        this.routing = Objects.requireNonNull(value, "routing");
        return this;
    }

    /** The retry mode of requests that do not give their own. */
    public FailoverClientBuilder retry(RetryMode value) {
        this.retry = Objects.requireNonNull(value, "retry");
        return this;
    }

    /**
     * Sends the caller's {@code Host} header to the upstream instead of the upstream's own name (what the proxy's
     * {@code --preserve-host} does). The JDK client allows it only when the system property
     * {@code jdk.httpclient.allowRestrictedHeaders} names {@code host} before its first use; the client sets it
     * when it is not set.
     */
    public FailoverClientBuilder forwardHost(boolean value) {
        this.forwardHost = value;
        return this;
    }

    public FailoverClient build() {
        return new FailoverClient(this);
    }
}
