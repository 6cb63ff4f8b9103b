package dev.outlierlab.live.httpclient;

import dev.outlierlab.live.Endpoint;
import dev.outlierlab.live.LiveClock;
import dev.outlierlab.live.LocalFailure;
import dev.outlierlab.live.LivePool;
import dev.outlierlab.live.Selection;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A failover client over the JDK {@link HttpClient} that routes through a {@link LivePool}. Each request's
 * candidates are the pool's upstreams in round-robin order (the j-th request starts at upstream
 * {@code j mod n}, as the gateway profile's router does), filtered by the pool's stage; the request goes to
 * the first candidate and, when an attempt fails (a 5xx, a timeout, a refused connection, a reset), to the
 * next, up to {@code fallbacks} more attempts. Every attempt's outcome is recorded in the pool. The request
 * fails for the caller only when its last attempt fails; the stage itself never fails one. A status outside
 * 100 to 599 (LinkedIn's 999) is no HTTP status: it is recorded as a reset (a protocol failure) and the
 * attempt failed. The client's own trouble (its {@link ByteBudget} full, or out of memory) is never recorded
 * against an upstream: the request fails with a {@link ProxyOverloadedException}. Thread-safe.
 */
public final class FailoverClient {
    /** Headers the JDK client sets itself and refuses from callers. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade",
            "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer");

    static {
        // Lets a client created with forwardHost send the caller's Host (the JDK reads this once, at its first
        // use); every other restricted header is still left out above. A value given on the command line wins.
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
    private final ByteBudget budget;
    private final boolean forwardHost;
    private final Map<String, URI> upstreams = new ConcurrentHashMap<>();
    private final AtomicLong requests = new AtomicLong();

    private FailoverClient(LivePool pool, HttpClient http, Duration attemptTimeout, int fallbacks,
            long maxResponseBytes, ByteBudget budget, boolean forwardHost) {
        this.pool = pool;
        this.http = http;
        this.attemptTimeout = attemptTimeout;
        this.fallbacks = fallbacks;
        this.maxResponseBytes = maxResponseBytes;
        this.budget = budget;
        this.forwardHost = forwardHost;
    }

    /**
     * A client over {@code pool}: {@code fallbacks} extra attempts at most (0 or more), each attempt bounded by
     * {@code attemptTimeout}; {@code http} null for a client of its own (HTTP/1.1, the same connect timeout).
     */
    public static FailoverClient create(LivePool pool, HttpClient http, Duration attemptTimeout, int fallbacks) {
        return create(pool, http, attemptTimeout, fallbacks, DEFAULT_MAX_RESPONSE_BYTES);
    }

    /**
     * As {@link #create(LivePool, HttpClient, Duration, int)}, holding at most {@code maxResponseBytes} of a
     * response body: an upstream that answers with more (by its Content-Length or as it sends) is cut off, its
     * status recorded as it came (it answered; the size is no failure of the upstream), no fallback tried (the
     * next would send the same), and {@link #send} throws a {@link FailoverException} saying so.
     */
    public static FailoverClient create(LivePool pool, HttpClient http, Duration attemptTimeout, int fallbacks,
            long maxResponseBytes) {
        return create(pool, http, attemptTimeout, fallbacks, maxResponseBytes, new ByteBudget(Long.MAX_VALUE), false);
    }

    /**
     * As {@link #create(LivePool, HttpClient, Duration, int, long)}, with every answer being read or held at
     * once within {@code budget} (a request that would pass it fails with {@link ProxyOverloadedException} and
     * is recorded against nobody), and with {@code forwardHost} the caller's {@code Host} header sent to the
     * upstream instead of the upstream's own name (the JDK client allows it only when the system property
     * {@code jdk.httpclient.allowRestrictedHeaders} names {@code host} before its first use).
     */
    public static FailoverClient create(LivePool pool, HttpClient http, Duration attemptTimeout, int fallbacks,
            long maxResponseBytes, ByteBudget budget, boolean forwardHost) {
        Objects.requireNonNull(pool, "pool");
        Objects.requireNonNull(budget, "budget");
        if (maxResponseBytes < 0) {
            throw new IllegalArgumentException("response limit " + maxResponseBytes + " bytes must be 0 or more");
        }
        if (fallbacks < 0) {
            throw new IllegalArgumentException("fallbacks " + fallbacks + " must be 0 or more");
        }
        if (attemptTimeout.isNegative() || attemptTimeout.isZero()) {
            throw new IllegalArgumentException("attempt timeout " + attemptTimeout + " must be positive");
        }
        HttpClient client = http != null ? http : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(attemptTimeout).build();
        return new FailoverClient(pool, client, attemptTimeout, fallbacks, maxResponseBytes, budget, forwardHost);
    }

    /** The bound on answers held at once; give back a response's {@link FailoverResponse#heldBytes()} here. */
    public ByteBudget budget() {
        return budget;
    }

    /** Adds an upstream (and its endpoint in the pool, unless the pool already has one of that name). */
    public Endpoint addUpstream(String name, URI base) {
        if (!"http".equals(base.getScheme()) && !"https".equals(base.getScheme())) {
            throw new IllegalArgumentException("upstream " + name + ": " + base + " is not an http or https URL");
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

    /** Sends a GET of {@code pathAndQuery} (starting with {@code /}). */
    public FailoverResponse get(String pathAndQuery) throws IOException, InterruptedException {
        return send("GET", pathAndQuery, Map.of(), new byte[0]);
    }

    /**
     * Sends one request: {@code pathAndQuery} is appended to each upstream's base URL; headers the JDK client
     * manages itself (Host, Content-Length, Connection, ...) are left out.
     *
     * @throws FailoverException when the last attempt allowed got no response
     */
    public FailoverResponse send(String method, String pathAndQuery, Map<String, List<String>> headers, byte[] body)
            throws IOException, InterruptedException {
        LiveClock clock = pool.clock();
        List<Endpoint> members = pool.endpoints();
        if (members.isEmpty()) {
            throw new FailoverException("pool " + pool.name() + " has no upstreams", List.of(), null, null);
        }
        int n = members.size();
        int start = (int) Math.floorMod(requests.getAndIncrement(), (long) n);
        List<Endpoint> rotated = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rotated.add(members.get((start + i) % n));
        }
        Selection selection = pool.filter(rotated);
        List<Endpoint> candidates = selection.candidates();
        int allowed = Math.min(candidates.size(), fallbacks + 1);
        List<Attempt> attempts = new ArrayList<>(allowed);
        HttpResponse<byte[]> lastResponse = null;
        String lastEndpoint = null;
        IOException lastError = null;
        java.util.concurrent.atomic.AtomicLong held = new java.util.concurrent.atomic.AtomicLong();
        long lastHeld = 0;
        boolean done = false;
        try {
            for (int i = 0; i < allowed; i++) {
                Endpoint endpoint = candidates.get(i);
                URI base = upstreams.get(endpoint.name());
                if (base == null) {
                    continue;
                }
                // The attempt is timed on the pool's clock, and the reading at its end is the outcome's time: one
                // clock read serves both (recording with it is about half the cost of a record that reads the clock).
                long started = clock.nanoTime();
                budget.release(held.getAndSet(0));
                try {
                    HttpResponse<byte[]> response = http.send(request(base, method, pathAndQuery, headers, body),
                            BoundedBody.handler(maxResponseBytes, budget, held));
                    long ended = clock.nanoTime();
                    int status = response.statusCode();
                    if (status < 100 || status > 599) {
                        // no HTTP status: a protocol failure of the upstream's, as a reset
                        pool.record(endpoint, LocalFailure.RESET, ended);
                        attempts.add(new Attempt(endpoint.name(), "invalid status " + status, true, ended - started));
                        lastResponse = null;
                        lastError = new IOException("upstream " + endpoint.name() + " answered with status " + status
                                + ", which is not an HTTP status (100 to 599)");
                        continue;
                    }
                    pool.record(endpoint, status, ended);
                    boolean failed = status >= 500;
                    attempts.add(new Attempt(endpoint.name(), Integer.toString(status), failed, ended - started));
                    lastResponse = response;
                    lastEndpoint = endpoint.name();
                    lastError = null;
                    lastHeld = held.get();
                    if (!failed) {
                        break;
                    }
                } catch (IOException e) {
                    long ended = clock.nanoTime();
                    ProxyOverloadedException own = ownFailure(e);
                    if (own != null) {
                        throw own;
                    }
                    BoundedBody.TooLarge tooLarge = tooLarge(e);
                    if (tooLarge != null) {
                        pool.record(endpoint, tooLarge.status, ended);
                        attempts.add(new Attempt(endpoint.name(), Integer.toString(tooLarge.status),
                                tooLarge.status >= 500, ended - started));
                        throw new FailoverException("upstream " + endpoint.name() + " " + tooLarge.getMessage(),
                                attempts, selection.stage(), tooLarge);
                    }
                    LocalFailure failure = classify(e);
                    pool.record(endpoint, failure, ended);
                    attempts.add(new Attempt(endpoint.name(), failure.name().toLowerCase(java.util.Locale.ROOT), true,
                            ended - started));
                    lastResponse = null;
                    lastError = e;
                } catch (OutOfMemoryError e) {
                    throw new ProxyOverloadedException("out of memory while reading upstream " + endpoint.name()
                            + "'s answer; the answer is dropped and nothing recorded against the upstream", e);
                }
            }
            if (lastResponse == null) {
                String tried = attempts.stream().map(a -> a.endpoint() + " " + a.outcome()).toList().toString();
                throw new FailoverException("every attempt failed: " + tried, attempts, selection.stage(), lastError);
            }
            done = true;
        } finally {
            // what the answer passed back holds stays reserved until the caller gives it back
            budget.release(held.get() - (done ? lastHeld : 0));
        }
        return new FailoverResponse(lastResponse, lastEndpoint, attempts, selection.stage(), lastHeld);
    }

    /** The client's own limit or memory, not the upstream: recorded against nobody. */
    private static ProxyOverloadedException ownFailure(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BoundedBody.BudgetExceeded over) {
                return new ProxyOverloadedException("proxy busy: " + over.getMessage()
                        + "; try again shortly (nothing is recorded against the upstream)", e);
            }
            if (t instanceof VirtualMachineError) {
                return new ProxyOverloadedException("proxy out of memory while reading an answer; "
                        + "nothing is recorded against the upstream", e);
            }
        }
        return null;
    }

    private HttpRequest request(URI base, String method, String pathAndQuery, Map<String, List<String>> headers,
            byte[] body) {
        String root = base.toString().endsWith("/") ? base.toString().substring(0, base.toString().length() - 1)
                : base.toString();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(root + pathAndQuery)).timeout(attemptTimeout)
                .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach((name, values) -> {
            if (forwardHost && name.equalsIgnoreCase("host") && !values.isEmpty()) {
                b.header("Host", values.get(0));
            } else if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                for (String v : values) {
                    b.header(name, v);
                }
            }
        });
        return b.build();
    }

    private static BoundedBody.TooLarge tooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BoundedBody.TooLarge tooLarge) {
                return tooLarge;
            }
        }
        return null;
    }

    /** A connect timeout or refusal is a connect failure, any other timeout a timeout, the rest a reset. */
    static LocalFailure classify(IOException e) {
        if (e instanceof HttpConnectTimeoutException || e instanceof ConnectException
                || e.getCause() instanceof ConnectException) {
            return LocalFailure.CONNECT_FAILED;
        }
        if (e instanceof HttpTimeoutException) {
            return LocalFailure.TIMEOUT;
        }
        return LocalFailure.RESET;
    }
}
