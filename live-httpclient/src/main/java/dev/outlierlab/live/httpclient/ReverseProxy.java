package dev.outlierlab.live.httpclient;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A small reverse proxy over a {@link FailoverClient}, for trying the modes on real traffic: every request
 * except {@code GET /stats} is sent through the client (the stage, then the first candidate, falling back on
 * failure) and the last attempt's answer is passed back, with {@code X-Outlier-Lab-Upstream} naming who
 * answered and {@code X-Outlier-Lab-Stage} what the stage did. When every attempt got no response the
 * answer is a 502 naming each attempt, and so is an answer over the client's response limit (16 MiB by
 * default). {@code GET /stats} is the pool in Prometheus text. Request bodies over {@link #MAX_BODY_BYTES} get
 * a 413; each attempt is bounded by the client's timeout. Slow clients, as in the lab server: a client has
 * {@link #REQUEST_SECONDS} to send its request and {@link #RESPONSE_SECONDS} to take the answer, and
 * {@link #DEFAULT_THREADS} workers (idle ones end after 30 s) leave room for many such clients while others
 * are answered; at most {@link #QUEUE} more connections wait for a worker, the rest are closed.
 */
public final class ReverseProxy implements AutoCloseable {
    public static final int MAX_BODY_BYTES = 1 << 20;
    /** Request-handling threads, as many as the lab server's: a slow client holds one until its timeout. */
    public static final int DEFAULT_THREADS = 128;
    /** Connections waiting for a worker before new ones are closed. */
    public static final int QUEUE = 256;
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade", "content-length", "date");

    private final FailoverClient client;
    private final HttpServer server;
    private final ExecutorService executor;

    private ReverseProxy(FailoverClient client, HttpServer server, ExecutorService executor) {
        this.client = client;
        this.server = server;
        this.executor = executor;
    }

    /** Seconds a client may take to send a request's headers and body before the connection is closed. */
    static final int REQUEST_SECONDS = 10;
    /** Seconds a client may take to read an answer before the connection is closed (the lab server's). */
    static final int RESPONSE_SECONDS = 30;

    static {
        // As the lab server does: the JDK server reads these once, when it is first used, and without them a few
        // half-sent requests hold every worker for ever. A value given on the command line wins.
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", Integer.toString(REQUEST_SECONDS));
        }
        if (System.getProperty("sun.net.httpserver.maxRspTime") == null) {
            System.setProperty("sun.net.httpserver.maxRspTime", Integer.toString(RESPONSE_SECONDS));
        }
    }

    /** Starts serving on {@code host:port} (port 0 for any free one) with {@link #DEFAULT_THREADS} workers. */
    public static ReverseProxy start(FailoverClient client, String host, int port) throws IOException {
        return start(client, host, port, DEFAULT_THREADS);
    }

    /** Starts serving on {@code host:port} with {@code threads} request-handling threads (1 or more). */
    public static ReverseProxy start(FailoverClient client, String host, int port, int threads) throws IOException {
        if (threads < 1) {
            throw new IllegalArgumentException("threads " + threads + " must be 1 or more");
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 128);
        ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "outlier-lab-proxy");
                    t.setDaemon(true);
                    return t;
                }, new ThreadPoolExecutor.AbortPolicy());
        executor.allowCoreThreadTimeOut(true);
        ReverseProxy proxy = new ReverseProxy(client, server, executor);
        server.createContext("/", proxy::handle);
        server.setExecutor(executor);
        server.start();
        return proxy;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    public URI uri() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + port() + "/");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            URI uri = exchange.getRequestURI();
            if ("/stats".equals(uri.getPath()) && "GET".equals(method)) {
                byte[] body = PrometheusText.render(client.pool().snapshot()).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                send(exchange, 200, body);
                return;
            }
            byte[] body = readBounded(exchange.getRequestBody());
            if (body == null) {
                sendText(exchange, 413, "request body over " + MAX_BODY_BYTES + " bytes\n");
                return;
            }
            String pathAndQuery = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
            try {
                FailoverResponse<byte[]> r = client.send(method, pathAndQuery, forwardable(exchange.getRequestHeaders()), body);
                Headers out = exchange.getResponseHeaders();
                r.response().headers().map().forEach((name, values) -> {
                    if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
                        out.put(name, new ArrayList<>(values));
                    }
                });
                out.set("X-Outlier-Lab-Upstream", r.endpoint());
                if (r.stage() != null) {
                    out.set("X-Outlier-Lab-Stage", r.stage().action().outputName() + " " + String.join(",", r.stage().endpoints()));
                }
                send(exchange, r.status(), r.body());
            } catch (FailoverException e) {
                sendText(exchange, 502, e.getMessage() + "\n");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                sendText(exchange, 503, "proxy shutting down\n");
            }
        }
    }

    private static Map<String, List<String>> forwardable(Headers headers) {
        Map<String, List<String>> out = new java.util.LinkedHashMap<>();
        headers.forEach((name, values) -> {
            if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
                out.put(name, values);
            }
        });
        return out;
    }

    private static byte[] readBounded(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        return body.length > MAX_BODY_BYTES ? null : body;
    }

    private static void sendText(HttpExchange exchange, int status, String text) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        send(exchange, status, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        boolean empty = body.length == 0 || "HEAD".equals(exchange.getRequestMethod()) || status == 204 || status == 304;
        exchange.sendResponseHeaders(status, empty ? -1 : body.length);
        if (!empty) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
