package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.StageRecord;
import java.io.IOException;
import java.util.List;

/**
 * Every attempt allowed for a request failed and the last one got no response (timeout, refused
 * connection, reset), an upstream answered with a body over the client's limit, or the request was refused
 * before it was sent ({@link RejectedRequestException}). Carries the attempts, so
 * the caller can say which upstreams were tried.
 */
public class FailoverException extends IOException {
    private static final long serialVersionUID = 1L;
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
