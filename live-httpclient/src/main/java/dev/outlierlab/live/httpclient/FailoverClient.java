package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.FailureClassifier;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.Selection;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * A failover client over the JDK {@link HttpClient} that routes through a {@link LivePool}, as Envoy's router
 * does over its cluster: each request's upstreams are rotated ({@link Routing}: over the upstreams the stage
 * left, as Envoy's round robin does, for the Envoy profile; over all of them in routing order, then filtered,
 * for the gateway profile), the request goes to the first and, when an attempt fails and the {@link RetryMode}
 * allows it (idempotent methods by default), to the next, up to {@code fallbacks} more attempts. What fails is
 * the {@link FailureClassifier}'s call; every attempt's outcome is recorded in the pool. The request fails for
 * the caller only when its last attempt fails; the stage itself never fails one. Requests are checked before
 * anything is sent ({@link RejectedRequestException}). Thread-safe; build one with {@link #builder(LivePool)}.
 */
public final class FailoverClient {
    /** Headers the JDK client sets itself and refuses from callers. */
    static final Set<String> RESTRICTED = Set.of(
            "connection",
            "content-length",
            "expect",
            "host",
            "upgrade",
            "keep-alive",
            "proxy-connection",
            "transfer-encoding",
            "te",
            "trailer");

    static {
        // Lets a client built with forwardHost send the caller's Host (the JDK reads this once, at its first use);
        // every other restricted header is still left out. A value given on the command line wins.
        if (System.getProperty("jdk.httpclient.allowRestrictedHeaders") == null) {
            System.setProperty("jdk.httpclient.allowRestrictedHeaders", "host");
        }
    }

    /** The default bound of a response body held in memory: 16 MiB. */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = 16L << 20;

    private final LivePool pool;
    private final HttpClient http;
    private final Duration attemptTimeout;
    private final int fallbacks;
    private final long maxResponseBytes;
    private final FailureClassifier classifier;
    private final Routing routing;
    private final RetryMode retry;
    private final boolean forwardHost;
    private final Map<String, URI> upstreams = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();

    FailoverClient(FailoverClientBuilder b) {
        this.pool = b.pool;
        this.attemptTimeout = b.attemptTimeout;
        this.http = b.http != null
                ? b.http
                : HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(attemptTimeout)
                        .build();
        this.fallbacks = b.fallbacks;
        this.maxResponseBytes = b.maxResponseBytes;
        this.classifier = b.classifier;
        this.routing = b.routing != null
                ? b.routing
                : pool.triesInOrder() ? Routing.NEXT_IN_ORDER : Routing.ROTATE_OVER_HEALTHY;
        this.retry = b.retry;
        this.forwardHost = b.forwardHost;
    }

    /** A builder of a client over {@code pool}. */
    public static FailoverClientBuilder builder(LivePool pool) {
        return new FailoverClientBuilder(pool);
    }

    /** {@code builder(pool).http(http).attemptTimeout(attemptTimeout).fallbacks(fallbacks).build()}. */
    public static FailoverClient create(LivePool pool, HttpClient http, Duration attemptTimeout, int fallbacks) {
        return builder(pool)
                .http(http)
                .attemptTimeout(attemptTimeout)
                .fallbacks(fallbacks)
                .build();
    }

    /** As {@link #create(LivePool, HttpClient, Duration, int)}, holding at most {@code maxResponseBytes} of a body. */
    public static FailoverClient create(
            LivePool pool, HttpClient http, Duration attemptTimeout, int fallbacks, long maxResponseBytes) {
        return builder(pool)
                .http(http)
                .attemptTimeout(attemptTimeout)
                .fallbacks(fallbacks)
                .maxResponseBytes(maxResponseBytes)
                .build();
    }

    /** Adds an upstream (and its endpoint in the pool, unless the pool already has one of that name). */
    public Endpoint addUpstream(String name, URI base) {
        if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme()) || base.getHost() == null) {
            throw new IllegalArgumentException(
                    "upstream " + name + ": " + base + " is not an http or https URL with a host");
        }
        upstreams.put(name, base);
        Endpoint existing = pool.endpoint(name);
        return existing != null ? existing : pool.add(name);
    }

    /** Removes an upstream and its endpoint. */
    public boolean removeUpstream(String name) {
        Endpoint e = pool.endpoint(name);
        upstreams.remove(name);
        return e != null && pool.remove(e);
    }

    public LivePool pool() {
        return pool;
    }

    public Routing routing() {
        return routing;
    }

    /** Sends a GET of {@code pathAndQuery} (an absolute path, with a query if any). */
    public FailoverResponse<byte[]> get(String pathAndQuery) throws IOException, InterruptedException {
        return send("GET", pathAndQuery, Map.of(), new byte[0]);
    }

    /**
     * Sends one request: {@code pathAndQuery} (an absolute path starting with {@code /}, visible ASCII) is
     * appended to each upstream's base URL; headers the JDK client manages itself (Host, Content-Length,
     * Connection, ...) are left out. Re-sent to another upstream as the client's {@link RetryMode} says.
     *
     * @throws RejectedRequestException when the method, the target or a header is not allowed (nothing sent)
     * @throws FailoverException when the last attempt allowed got no response
     */
    public FailoverResponse<byte[]> send(
            String method, String pathAndQuery, Map<String, List<String>> headers, byte[] body)
            throws IOException, InterruptedException {
        return send(method, pathAndQuery, headers, body, retry);
    }

    /** {@link #send(String, String, Map, byte[])} with this request's own {@link RetryMode}. */
    public FailoverResponse<byte[]> send(
            String method, String pathAndQuery, Map<String, List<String>> headers, byte[] body, RetryMode retryMode)
            throws IOException, InterruptedException {
        return send(method, pathAndQuery, headers, body, retryMode, BoundedBody.handler(maxResponseBytes));
    }

    /**
     * {@link #send(String, String, Map, byte[])} with the client's retry mode, each answer read into memory up
     * to the client's limit and every chunk reserved in {@code budget} (added to {@code reserved}, which the
     * caller gives back with {@link ByteBudget#release} once it has let go of the answer): past the budget the
     * request fails with {@link ProxyOverloadedException}, recorded against no upstream. What the proxy uses.
     */
    public FailoverResponse<byte[]> send(
            String method,
            String pathAndQuery,
            Map<String, List<String>> headers,
            byte[] body,
            ByteBudget budget,
            AtomicLong reserved)
            throws IOException, InterruptedException {
        return send(
                method,
                pathAndQuery,
                headers,
                body,
                retry,
                BoundedBody.handler(maxResponseBytes, Objects.requireNonNull(budget, "budget"), reserved));
    }

    private <T> FailoverResponse<T> send(
            String method,
            String pathAndQuery,
            Map<String, List<String>> headers,
            byte[] body,
            RetryMode retryMode,
            HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        FailoverCall.Template t = new FailoverCall.Template(
                RequestTarget.method(method),
                RequestTarget.pathAndQuery(pathAndQuery),
                HttpHeaders.of(headers, (n, v) -> true),
                body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body),
                attemptTimeout,
                false,
                Optional.empty());
        return await(call(t, handler, retryMode));
    }

    /**
     * Sends an {@link HttpRequest} as it is (method, headers, body publisher, timeout, version), to the path
     * and query of its URI on each upstream tried: the URI's scheme and authority name the service and are
     * not used. The body publisher is subscribed once per attempt, so a request that may be re-sent needs a
     * publisher that can be read twice (bytes, a string, a file); give a one-shot stream {@link RetryMode#NEVER}.
     * The response body is read into memory up to the client's limit.
     */
    public FailoverResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
        return send(request, BoundedBody.handler(maxResponseBytes), retry);
    }

    /**
     * {@link #send(HttpRequest)} with the caller's own body handler ({@code BodyHandlers.ofInputStream()} to
     * stream a large answer instead of holding it in memory) and retry mode. Only the answer that is returned
     * reaches the handler; the body of a failing answer that is re-sent elsewhere is discarded.
     */
    public <T> FailoverResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler, RetryMode retryMode)
            throws IOException, InterruptedException {
        return await(sendAsync(request, handler, retryMode));
    }

    /** {@link #send(HttpRequest)} without blocking; the future fails with the same exceptions. */
    public CompletableFuture<FailoverResponse<byte[]>> sendAsync(HttpRequest request) {
        return sendAsync(request, BoundedBody.handler(maxResponseBytes), retry);
    }

    /** {@link #send(HttpRequest, HttpResponse.BodyHandler, RetryMode)} without blocking; cancelling the future cancels the attempt. */
    public <T> CompletableFuture<FailoverResponse<T>> sendAsync(
            HttpRequest request, HttpResponse.BodyHandler<T> handler, RetryMode retryMode) {
        Objects.requireNonNull(handler, "body handler");
        try {
            FailoverCall.Template t = new FailoverCall.Template(
                    RequestTarget.method(request.method()),
                    RequestTarget.pathAndQuery(request.uri()),
                    request.headers(),
                    request.bodyPublisher().orElse(HttpRequest.BodyPublishers.noBody()),
                    request.timeout().orElse(attemptTimeout),
                    request.expectContinue(),
                    request.version());
            return call(t, handler, retryMode);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private <T> CompletableFuture<FailoverResponse<T>> call(
            FailoverCall.Template t, HttpResponse.BodyHandler<T> handler, RetryMode retryMode) {
        Objects.requireNonNull(retryMode, "retry mode");
        List<Endpoint> members = pool.endpoints();
        if (members.isEmpty()) {
            return CompletableFuture.failedFuture(
                    new FailoverException("pool " + pool.name() + " has no upstreams", List.of(), null, null));
        }
        long j = requests.getAndIncrement();
        Selection selection;
        List<Endpoint> candidates;
        if (routing == Routing.NEXT_IN_ORDER) {
            selection = pool.filter(rotated(members, j));
            candidates = selection.candidates();
        } else {
            selection = pool.filter(members);
            candidates = rotated(selection.candidates(), j);
        }
        return new FailoverCall<>(this, t, handler, retryMode, candidates, selection.stage()).start();
    }

    private static List<Endpoint> rotated(List<Endpoint> list, long request) {
        int n = list.size();
        int start = (int) Math.floorMod(request, (long) n);
        if (start == 0) {
            return list;
        }
        List<Endpoint> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(list.get((start + i) % n));
        }
        return out;
    }

    private static <T> T await(CompletableFuture<T> future) throws IOException, InterruptedException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }

    URI upstream(String name) {
        return upstreams.get(name);
    }

    HttpClient http() {
        return http;
    }

    int fallbacks() {
        return fallbacks;
    }

    FailureClassifier classifier() {
        return classifier;
    }

    /** The headers left out of every attempt: the restricted ones, {@code Host} too unless it is forwarded. */
    Set<String> restricted() {
        return forwardHost ? RESTRICTED_BUT_HOST : RESTRICTED;
    }

    private static final Set<String> RESTRICTED_BUT_HOST =
            RESTRICTED.stream().filter(h -> !h.equals("host")).collect(Collectors.toUnmodifiableSet());
}
