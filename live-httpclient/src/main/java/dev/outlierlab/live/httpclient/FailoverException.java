package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.StageRecord;
import java.io.IOException;
import java.util.List;

/**
 * Every attempt allowed for a request failed and the last one got no response (timeout, refused
 * connection, reset), or an upstream answered with a body over the client's limit. Carries the attempts, so
 * the caller can say which upstreams were tried.
 */
public final class FailoverException extends IOException {
    private final transient List<Attempt> attempts;
    private final transient StageRecord stage;

    FailoverException(String message, List<Attempt> attempts, StageRecord stage, Throwable cause) {
        super(message, cause);
        this.attempts = List.copyOf(attempts);
        this.stage = stage;
    }

    public List<Attempt> attempts() {
        return attempts;
    }

    public StageRecord stage() {
        return stage;
    }
}
