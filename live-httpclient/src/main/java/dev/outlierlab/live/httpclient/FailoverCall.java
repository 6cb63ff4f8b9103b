package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LiveClock;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.LocalFailure;
import dev.outlierlab.live.StageRecord;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One request of a {@link FailoverClient} on its way through its attempts, asynchronously: each attempt is
 * built on the chosen upstream, sent with the JDK client's {@code sendAsync}, classified when its headers
 * arrive (a failing answer that will be re-sent has its body discarded; any other goes to the caller's body
 * handler) and recorded in the pool with the clock reading at its end. The next upstream is tried only when
 * the {@link RetryMode} allows it.
 */
final class FailoverCall<T> {
    /** The shape of every attempt's request; only the URI changes from one upstream to the next. */
    record Template(
            String method,
            String target,
            HttpHeaders headers,
            HttpRequest.BodyPublisher body,
            Duration timeout,
            boolean expectContinue,
            Optional<HttpClient.Version> version) {
        HttpRequest on(URI base, Set<String> restricted) throws RejectedRequestException {
            HttpRequest.Builder b = HttpRequest.newBuilder()
                    .uri(RequestTarget.on(base, target))
                    .timeout(timeout)
                    .expectContinue(expectContinue)
                    .method(method, body);
            version.ifPresent(b::version);
            for (var h : headers.map().entrySet()) {
                if (restricted.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                    continue;
                }
                for (String v : h.getValue()) {
                    try {
                        b.header(h.getKey(), v);
                    } catch (IllegalArgumentException e) {
                        throw new RejectedRequestException(
                                "header " + RequestTarget.shown(h.getKey()) + " value",
                                v,
                                "a header name token and a value without control characters");
                    }
                }
            }
            return b.build();
        }
    }

    /** Set by the body handler when the headers arrive. */
    private static final class Answer {
        int recorded;
        boolean discarded;
    }

    private final FailoverClient client;
    private final Template template;
    private final HttpResponse.BodyHandler<T> handler;
    private final RetryMode retry;
    private final List<Endpoint> candidates;
    private final StageRecord stage;
    private final int allowed;
    private final List<Attempt> attempts;
    private final CompletableFuture<FailoverResponse<T>> result = new CompletableFuture<>();
    private volatile CompletableFuture<?> inFlight;
    private Throwable lastError;
    private String notResent;

    FailoverCall(
            FailoverClient client,
            Template template,
            HttpResponse.BodyHandler<T> handler,
            RetryMode retry,
            List<Endpoint> candidates,
            StageRecord stage) {
        this.client = client;
        this.template = template;
        this.handler = handler;
        this.retry = retry;
        this.candidates = candidates;
        this.stage = stage;
        this.allowed = Math.min(candidates.size(), client.fallbacks() + 1);
        this.attempts = new ArrayList<>(allowed);
    }

    CompletableFuture<FailoverResponse<T>> start() {
        result.whenComplete((r, e) -> {
            CompletableFuture<?> f = inFlight;
            if (e instanceof CancellationException && f != null) {
                f.cancel(true);
            }
        });
        next(0);
        return result;
    }

    private void next(int i) {
        if (result.isDone()) {
            return;
        }
        if (i >= allowed) {
            String tried = attempts.stream()
                    .map(a -> a.endpoint() + " " + a.outcome())
                    .toList()
                    .toString();
            String message = attempts.isEmpty()
                    ? "pool " + client.pool().name() + " has no upstreams"
                    : "every attempt failed: " + tried + (notResent == null ? "" : "; " + notResent);
            result.completeExceptionally(new FailoverException(message, attempts, stage, lastError));
            return;
        }
        Endpoint endpoint = candidates.get(i);
        URI base = client.upstream(endpoint.name());
        if (base == null) {
            next(i + 1);
            return;
        }
        HttpRequest request;
        try {
            request = template.on(base, client.restricted());
        } catch (RejectedRequestException e) {
            result.completeExceptionally(e);
            return;
        }
        boolean more = i + 1 < allowed;
        Answer answer = new Answer();
        LiveClock clock = client.pool().clock();
        // One clock reading ends the attempt's timing and is the outcome's time (half the cost of a record that
        // reads the clock itself).
        long started = clock.nanoTime();
        HttpResponse.BodyHandler<T> classifying = info -> {
            answer.recorded = recordable(info);
            if (answer.recorded >= 500 && more && retry.mayResend(template.method(), false)) {
                answer.discarded = true;
                return HttpResponse.BodySubscribers.replacing(null);
            }
            return handler.apply(info);
        };
        CompletableFuture<HttpResponse<T>> sent = client.http().sendAsync(request, classifying);
        inFlight = sent;
        sent.whenComplete(
                (response, error) -> ended(i, endpoint, more, started, clock.nanoTime(), answer, response, error));
    }

    private int recordable(HttpResponse.ResponseInfo info) {
        int status = info.statusCode();
        if (status < 100 || status > 599) {
            return 500; // not an HTTP status: the upstream is broken
        }
        int grpc = info.headers()
                .firstValue("grpc-status")
                .map(FailoverCall::grpcStatus)
                .orElse(-1);
        return client.classifier().statusToRecord(status, grpc);
    }

    private static int grpcStatus(String value) {
        try {
            int v = Integer.parseInt(value.trim());
            return v >= 0 ? v : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private void ended(
            int i,
            Endpoint endpoint,
            boolean more,
            long started,
            long ended,
            Answer answer,
            HttpResponse<T> response,
            Throwable error) {
        LivePool pool = client.pool();
        if (error != null) {
            Throwable cause =
                    error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            BoundedBody.TooLarge tooLarge = BoundedBody.tooLarge(cause);
            if (tooLarge != null) {
                int recorded = client.classifier().statusToRecord(tooLarge.status);
                pool.record(endpoint, recorded, ended);
                attempts.add(new Attempt(
                        endpoint.name(), Integer.toString(tooLarge.status), recorded >= 500, ended - started));
                result.completeExceptionally(new FailoverException(
                        "upstream " + endpoint.name() + " " + tooLarge.getMessage(), attempts, stage, tooLarge));
                return;
            }
            if (result.isDone()) {
                return; // cancelled by the caller: nothing to say about the upstream
            }
            ProxyOverloadedException own = ownFailure(cause);
            if (own != null) {
                // the caller's own limit or memory: recorded against nobody, never re-sent
                result.completeExceptionally(own);
                return;
            }
            LocalFailure failure = client.classifier().failureToRecord(cause);
            if (failure != null) {
                pool.record(endpoint, failure, ended);
            }
            attempts.add(new Attempt(
                    endpoint.name(),
                    failure == null ? "ignored" : failure.name().toLowerCase(Locale.ROOT),
                    true,
                    ended - started));
            lastError = cause;
            continueOrStop(i, more, failure == LocalFailure.CONNECT_FAILED);
            return;
        }
        pool.record(endpoint, answer.recorded, ended);
        boolean failed = answer.recorded >= 500;
        attempts.add(new Attempt(endpoint.name(), Integer.toString(response.statusCode()), failed, ended - started));
        if (failed && answer.discarded) {
            next(i + 1);
            return;
        }
        result.complete(new FailoverResponse<>(response, endpoint.name(), attempts, stage));
    }

    /** The caller's byte bound or the process's memory in an error's cause chain, as its own failure; or null. */
    static ProxyOverloadedException ownFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BoundedBody.BudgetExceeded over) {
                return new ProxyOverloadedException(
                        "proxy busy: " + over.getMessage()
                                + "; try again shortly (nothing is recorded against the upstream)",
                        e);
            }
            if (t instanceof VirtualMachineError) {
                return new ProxyOverloadedException(
                        "proxy out of memory while reading an answer; " + "nothing is recorded against the upstream",
                        e);
            }
        }
        return null;
    }

    private void continueOrStop(int i, boolean more, boolean connectFailed) {
        if (more && retry.mayResend(template.method(), connectFailed)) {
            next(i + 1);
            return;
        }
        if (more) {
            notResent = retry == RetryMode.NEVER
                    ? "not re-sent: the request asked for no retry"
                    : "not re-sent: " + template.method() + " is not idempotent (RetryMode.ALWAYS re-sends it)";
        }
        next(allowed);
    }
}
