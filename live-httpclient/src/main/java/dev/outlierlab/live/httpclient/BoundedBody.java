package dev.outlierlab.live.httpclient;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A response body read into memory up to a limit. A body that says (Content-Length) or turns out to be longer
 * is not read further: the subscription is cancelled, which closes the connection, and the body fails with
 * {@link TooLarge}, which carries the status the upstream answered with.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
    /** The upstream answered, but with a body over the limit. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        final int status;
        final long limit;

        TooLarge(int status, long limit) {
            super("answered " + status + " with a body over the limit of " + limit + " bytes");
            this.status = status;
            this.limit = limit;
        }
    }

    /** The answers being read at once would hold more than the proxy's total bound (its own limit). */
    static final class BudgetExceeded extends IOException {
        private static final long serialVersionUID = 1L;

        BudgetExceeded(long budget) {
            super("the answers being read at once would hold more than " + budget + " bytes");
        }
    }

    private final int status;
    private final long limit;
    private final long declared;
    private ByteBudget budget;
    private AtomicLong reserved;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private Flow.Subscription subscription;

    private BoundedBody(int status, long limit, long declared) {
        this.status = status;
        this.limit = limit;
        this.declared = declared;
    }

    /** The {@link TooLarge} in an error's cause chain, or null. */
    static TooLarge tooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TooLarge tooLarge) {
                return tooLarge;
            }
        }
        return null;
    }

    static HttpResponse.BodyHandler<byte[]> handler(long limit) {
        return info -> new BoundedBody(
                info.statusCode(),
                limit,
                info.headers().firstValueAsLong("content-length").orElse(-1));
    }

    /**
     * As {@link #handler(long)}, every chunk also reserved in {@code budget} (twice: the buffer and the copy
     * made at the end) and added to {@code reserved}, which the caller gives back once it has let go of the
     * body; a chunk past the budget fails the body with {@link BudgetExceeded}.
     */
    static HttpResponse.BodyHandler<byte[]> handler(long limit, ByteBudget budget, AtomicLong reserved) {
        return info -> {
            BoundedBody b = new BoundedBody(
                    info.statusCode(),
                    limit,
                    info.headers().firstValueAsLong("content-length").orElse(-1));
            b.budget = budget;
            b.reserved = reserved;
            return b;
        };
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (declared > limit) {
            s.cancel();
            body.completeExceptionally(new TooLarge(status, limit));
        } else {
            s.request(Long.MAX_VALUE);
        }
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer b : buffers) {
            if ((long) bytes.size() + b.remaining() > limit) {
                subscription.cancel();
                body.completeExceptionally(new TooLarge(status, limit));
                return;
            }
            if (budget != null) {
                if (!budget.reserve(2L * b.remaining())) {
                    subscription.cancel();
                    body.completeExceptionally(new BudgetExceeded(budget.bound()));
                    return;
                }
                reserved.addAndGet(2L * b.remaining());
            }
            byte[] chunk = new byte[b.remaining()];
            b.get(chunk);
            bytes.write(chunk, 0, chunk.length);
        }
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toByteArray());
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }
}
