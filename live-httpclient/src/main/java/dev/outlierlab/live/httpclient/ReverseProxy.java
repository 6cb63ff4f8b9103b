package dev.outlierlab.live.httpclient;

import static dev.outlierlab.live.httpclient.ClientAnswers.closeAfter;
import static dev.outlierlab.live.httpclient.ClientAnswers.forwardable;
import static dev.outlierlab.live.httpclient.ClientAnswers.passBack;
import static dev.outlierlab.live.httpclient.ClientAnswers.send;
import static dev.outlierlab.live.httpclient.ClientAnswers.sendText;
import static dev.outlierlab.live.httpclient.ClientAnswers.text;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.outlierlab.httpserver.BoundedHttpServer;
import dev.outlierlab.httpserver.ServerLimits;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A small reverse proxy over a {@link FailoverClient}, for trying the modes on real traffic: every request
 * except {@code GET /stats} is sent through the client (the stage, then the first candidate, falling back on
 * failure) and the last attempt's answer is passed back, with {@code X-Outlier-Lab-Upstream} naming who
 * answered and {@code X-Outlier-Lab-Stage} what the stage did. When every attempt failed without an answer
 * (or with no valid status) the answer is a 502 naming each attempt, and so is an answer over the client's
 * response limit; the client's own overload is a 503 recorded against nobody. {@code GET /stats} is the pool
 * in Prometheus text plus the proxy's own counters ({@link ProxyCounters}). Requests pass the
 * {@link ProxyGuard} (Host and Origin naming the proxy, a token method, no control characters) or get a 403 or
 * 400. Against slow and many clients: the {@link BoundedHttpServer} reads request headers on its selector
 * thread, closes at once a connection past {@link Settings#clientConnections()} of one client address or
 * {@link #MAX_CONNECTIONS} in all, and closes one that sends no byte or no complete request within
 * {@link #REQUEST_SECONDS}, or does not take its answer within {@link #RESPONSE_SECONDS}; request bodies are read
 * and answers written on I/O threads (one per connection being read or written), so only complete requests
 * reach the {@code threads} workers
 * that call the upstreams; a client address has at most {@link Settings#perClient()} requests in the proxy at
 * once (429 past it), {@link #QUEUE} requests wait for a worker (503 past it), and the answers held at once
 * are bounded by the settings' {@link ByteBudget} (503 past it, recorded against no upstream). What goes back to the
 * client is {@link ClientAnswers}; the count per client address, {@link PerClientLimit}.
 */
public final class ReverseProxy implements AutoCloseable {
    public static final int MAX_BODY_BYTES = 1 << 20;
    /** Workers calling the upstreams at once. */
    public static final int DEFAULT_THREADS = 128;
    /** Complete requests waiting for a worker before new ones get a 503. */
    public static final int QUEUE = 256;
    /** Requests of one client address in the proxy at once before its next ones get a 429. */
    public static final int DEFAULT_PER_CLIENT = 64;
    /** Bytes of upstream answers held at once by default (256 MiB): past it a request gets a 503. */
    public static final long DEFAULT_BUFFERED_BYTES = 256L << 20;
    /** Open connections at most; more are closed as soon as they are accepted. */
    public static final int MAX_CONNECTIONS = ServerLimits.DEFAULT_MAX_CONNECTIONS;
    /** Open connections of one client address at most by default; more are closed as soon as they are accepted. */
    public static final int DEFAULT_CLIENT_CONNECTIONS = ServerLimits.DEFAULT_CLIENT_CONNECTIONS;
    /** Seconds a client has for its first byte, and then for its whole request, before the connection is closed. */
    public static final int REQUEST_SECONDS = ServerLimits.DEFAULT_REQUEST_SECONDS;
    /** Seconds a client may take to read an answer before the connection is closed (the lab server's). */
    public static final int RESPONSE_SECONDS = ServerLimits.DEFAULT_RESPONSE_SECONDS;

    /**
     * How to serve: {@code threads} workers calling the upstreams, {@code perClient} requests of one client
     * address at once, the names besides loopback and the bound address that {@code Host} may give, and the
     * count of stage records lost (shown in {@code /stats}; zero when no stage log is written).
     */
    public record Settings(
            int threads,
            int perClient,
            List<String> allowedHosts,
            LongSupplier stageRecordsLost,
            ByteBudget budget,
            int clientConnections) {
        /** As given, with {@link #DEFAULT_CLIENT_CONNECTIONS} open connections per client address. */
        public Settings(
                int threads,
                int perClient,
                List<String> allowedHosts,
                LongSupplier stageRecordsLost,
                ByteBudget budget) {
            this(threads, perClient, allowedHosts, stageRecordsLost, budget, DEFAULT_CLIENT_CONNECTIONS);
        }

        public Settings {
            if (threads < 1 || perClient < 1 || clientConnections < 1) {
                throw new IllegalArgumentException("threads " + threads + ", perClient " + perClient
                        + " and clientConnections " + clientConnections + " must be 1 or more");
            }
            allowedHosts = List.copyOf(allowedHosts);
            Objects.requireNonNull(stageRecordsLost, "stageRecordsLost");
            Objects.requireNonNull(budget, "budget");
        }

        /** {@code threads} workers, the default share per client, no other names, {@link #DEFAULT_BUFFERED_BYTES}. */
        public static Settings of(int threads) {
            return new Settings(
                    threads,
                    DEFAULT_PER_CLIENT,
                    List.of(),
                    () -> 0,
                    new ByteBudget(DEFAULT_BUFFERED_BYTES),
                    DEFAULT_CLIENT_CONNECTIONS);
        }

        /** These settings with {@code n} open connections per client address at most. */
        public Settings withClientConnections(int n) {
            return new Settings(threads, perClient, allowedHosts, stageRecordsLost, budget, n);
        }
    }

    private final FailoverClient client;
    private final BoundedHttpServer server;
    private final ThreadPoolExecutor io;
    private final ThreadPoolExecutor workers;
    private final ProxyGuard guard;
    private final Settings settings;
    private final ProxyCounters counters = new ProxyCounters();
    private final PerClientLimit perClient;

    private ReverseProxy(
            FailoverClient client,
            BoundedHttpServer server,
            ThreadPoolExecutor io,
            ThreadPoolExecutor workers,
            String host,
            Settings settings) {
        this.client = client;
        this.server = server;
        this.io = io;
        this.workers = workers;
        this.settings = settings;
        this.perClient = new PerClientLimit(settings.perClient());
        this.guard = new ProxyGuard(host, server.getAddress().getPort(), settings.allowedHosts());
    }

    /** Starts serving on {@code host:port} (port 0 for any free one) with {@link #DEFAULT_THREADS} workers. */
    public static ReverseProxy start(FailoverClient client, String host, int port) throws IOException {
        return start(client, host, port, Settings.of(DEFAULT_THREADS));
    }

    /** Starts serving on {@code host:port} with {@code threads} workers (1 or more). */
    public static ReverseProxy start(FailoverClient client, String host, int port, int threads) throws IOException {
        return start(client, host, port, Settings.of(threads));
    }

    /** Starts serving on {@code host:port} as {@code settings} say. */
    public static ReverseProxy start(FailoverClient client, String host, int port, Settings settings)
            throws IOException {
        BoundedHttpServer server = BoundedHttpServer.create(
                new InetSocketAddress(host, port),
                256,
                ServerLimits.defaults().withClientConnections(settings.clientConnections()));
        // one I/O thread per connection being read or written: the server bounds the connections
        ThreadPoolExecutor io = new ThreadPoolExecutor(
                0,
                MAX_CONNECTIONS + 16,
                30,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                daemon("outlier-lab-proxy-io"),
                new ThreadPoolExecutor.AbortPolicy());
        ThreadPoolExecutor workers = new ThreadPoolExecutor(
                settings.threads(),
                settings.threads(),
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE),
                daemon("outlier-lab-proxy"),
                new ThreadPoolExecutor.AbortPolicy());
        workers.allowCoreThreadTimeOut(true);
        ReverseProxy proxy = new ReverseProxy(client, server, io, workers, host, settings);
        server.createContext("/", proxy::handle);
        server.setExecutor(io);
        server.start();
        return proxy;
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI uri() {
        String h = server.getAddress().getHostString();
        return URI.create("http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + port() + "/");
    }

    /** The proxy's own counters (refusals, its own failures), as {@code /stats} shows them. */
    public ProxyCounters counters() {
        return counters;
    }

    /** On an I/O thread: the checks, {@code /stats} and the body; a complete request is passed to a worker. */
    private void handle(HttpExchange exchange) throws IOException {
        boolean handedOff = false;
        try {
            String method = exchange.getRequestMethod();
            Headers headers = exchange.getRequestHeaders();
            String malformed = ProxyGuard.malformed(method, headers);
            if (malformed != null) {
                counters.malformed.increment();
                closeAfter(exchange);
                sendText(exchange, 400, malformed + "\n");
                return;
            }
            String refusal = guard.refusal(headers);
            if (refusal != null) {
                counters.foreign.increment();
                sendText(exchange, 403, refusal + "\n");
                return;
            }
            URI uri = exchange.getRequestURI();
            if ("/stats".equals(uri.getPath()) && "GET".equals(method)) {
                String text = PrometheusText.render(client.pool().snapshot())
                        + counters.render(
                                client.pool().name(),
                                settings.stageRecordsLost().getAsLong(),
                                settings.budget(),
                                server.refusedConnections(),
                                server.evictedConnections(),
                                server.malformedRequests());
                exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                send(exchange, 200, text.getBytes(StandardCharsets.UTF_8));
                return;
            }
            PerClientLimit.Share mine =
                    perClient.enter(exchange.getRemoteAddress().getAddress());
            if (mine == null) {
                counters.clientLimit.increment();
                exchange.getResponseHeaders().set("Retry-After", "1");
                sendText(
                        exchange,
                        429,
                        "this client has " + settings.perClient()
                                + " requests in the proxy already; try again when one is answered\n");
                return;
            }
            try {
                byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
                if (body.length > MAX_BODY_BYTES) {
                    counters.bodyTooLarge.increment();
                    closeAfter(exchange);
                    sendText(exchange, 413, "request body over " + MAX_BODY_BYTES + " bytes\n");
                    return;
                }
                String pathAndQuery = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
                workers.execute(() -> forward(exchange, method, pathAndQuery, body, mine));
                handedOff = true;
            } catch (RejectedExecutionException busy) {
                counters.busy.increment();
                exchange.getResponseHeaders().set("Retry-After", "1");
                sendText(exchange, 503, "proxy busy: " + QUEUE + " requests wait for a worker already\n");
            } finally {
                if (!handedOff) {
                    perClient.leave(mine);
                }
            }
        } finally {
            if (!handedOff) {
                exchange.close();
            }
        }
    }

    /** On a worker: the attempts; the answer is written on an I/O thread, so a slow reader holds no worker. */
    private void forward(
            HttpExchange exchange, String method, String pathAndQuery, byte[] body, PerClientLimit.Share mine) {
        Runnable answer;
        AtomicLong held = new AtomicLong();
        try {
            FailoverResponse<byte[]> r = client.send(
                    method, pathAndQuery, forwardable(exchange.getRequestHeaders()), body, settings.budget(), held);
            answer = () -> {
                try {
                    if (r.status() < 100 || r.status() > 599) {
                        // recorded as a failure by the client; no HTTP status to pass on
                        text(
                                exchange,
                                502,
                                "upstream " + r.endpoint() + " answered with status " + r.status()
                                        + ", which is not an HTTP status (100 to 599)\n");
                    } else {
                        passBack(exchange, r);
                    }
                } finally {
                    settings.budget().release(held.getAndSet(0));
                }
            };
        } catch (ProxyOverloadedException e) {
            settings.budget().release(held.getAndSet(0));
            counters.ownFailures.increment();
            answer = () -> text(exchange, 503, e.getMessage() + "\n");
        } catch (FailoverException e) {
            settings.budget().release(held.getAndSet(0));
            answer = () -> text(exchange, 502, e.getMessage() + "\n");
        } catch (IOException | RuntimeException | Error e) {
            settings.budget().release(held.getAndSet(0));
            // the proxy's own failure (never recorded against an upstream)
            counters.ownFailures.increment();
            answer = () -> text(exchange, 500, "proxy internal error: " + e + "\n");
        } catch (InterruptedException e) {
            settings.budget().release(held.getAndSet(0));
            Thread.currentThread().interrupt();
            answer = () -> text(exchange, 503, "proxy shutting down\n");
        }
        Runnable write = answer;
        Runnable finish = () -> {
            try {
                write.run();
            } finally {
                exchange.close();
                perClient.leave(mine);
            }
        };
        try {
            io.execute(finish);
        } catch (RejectedExecutionException full) {
            finish.run();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
        io.shutdownNow();
    }
}
