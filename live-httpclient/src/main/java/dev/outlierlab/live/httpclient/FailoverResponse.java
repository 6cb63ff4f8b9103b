package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.StageRecord;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * The answer to one request sent through a {@link FailoverClient}: the response of the last attempt (a
 * success, or the last failing status when no other attempt was allowed), which upstream gave it, every
 * attempt in order, and the stage record of the request (null when the stage did nothing). The body is what
 * the request's body handler made of it: bytes read into memory up to the client's limit by default, or a
 * stream, a file, ... when the caller passed its own {@link HttpResponse.BodyHandler}.
 *
 * @param <T> the body's type
 */
public record FailoverResponse<T>(
        HttpResponse<T> response, String endpoint, List<Attempt> attempts, StageRecord stage) {
    public FailoverResponse {
        attempts = List.copyOf(attempts);
    }

    public int status() {
        return response.statusCode();
    }

    public T body() {
        return response.body();
    }
}
