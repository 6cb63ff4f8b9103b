package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.StageRecord;
import java.net.http.HttpResponse;
import java.util.List;

/**
 * The answer to one request sent through a {@link FailoverClient}: the response of the last attempt (a
 * success, or the last failing status when every attempt allowed failed), which upstream gave it, every
 * attempt in order, the stage record of the request (null when the stage did nothing), and the bytes of the
 * client's {@link ByteBudget} the answer holds, which the caller gives back once it has sent or dropped it.
 */
public record FailoverResponse(HttpResponse<byte[]> response, String endpoint, List<Attempt> attempts,
        StageRecord stage, long heldBytes) {
    public FailoverResponse {
        attempts = List.copyOf(attempts);
    }

    public int status() {
        return response.statusCode();
    }

    public byte[] body() {
        return response.body();
    }
}
