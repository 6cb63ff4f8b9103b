package dev.outlierlab.live.httpclient;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A misbehaving upstream on 127.0.0.1 for tests and demonstrations (JDK {@link HttpServer}): it answers
 * {@code 200} with its name, and on command fails a share of requests with a status (spread evenly: with
 * 33 %, requests 3, 6, 9, ... fail), delays every answer (so that clients time out), or closes its port (so
 * that connections are refused) and reopens it on the same port.
 */
public final class LoopbackUpstream implements AutoCloseable {
    private final String name;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "upstream");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong served = new AtomicLong();
    private volatile int failPercent;
    private volatile int failStatus = 503;
    private volatile long delayMillis;
    private volatile int bodyBytes = -1;
    private volatile boolean declaresLength = true;
    private volatile String extraHeader;
    private volatile String extraValue;
    private int port;
    private HttpServer server;

    private LoopbackUpstream(String name) {
        this.name = name;
    }

    /** Starts an upstream on a free loopback port. */
    public static LoopbackUpstream start(String name) throws IOException {
        LoopbackUpstream u = new LoopbackUpstream(name);
        u.open(0);
        return u;
    }

    private synchronized void open(int wantedPort) throws IOException {
        JdkServerLimits.ensure();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), wantedPort), 64);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
        port = server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange;
                InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
            long n = served.incrementAndGet();
            long delay = delayMillis;
            if (delay > 0) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            int p = failPercent;
            boolean fail = p > 0 && (n * p) / 100 > ((n - 1) * p) / 100;
            int size = bodyBytes;
            byte[] body = size < 0 ? (name + "\n").getBytes(StandardCharsets.UTF_8) : new byte[size];
            exchange.getResponseHeaders().add("X-Upstream", name);
            String header = extraHeader;
            if (header != null) {
                exchange.getResponseHeaders().add(header, extraValue);
            }
            // Without a declared length the JDK server sends the body chunked.
            exchange.sendResponseHeaders(fail ? failStatus : 200, declaresLength ? body.length : 0);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    public String name() {
        return name;
    }

    public URI uri() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** Requests that reached the handler. */
    public long served() {
        return served.get();
    }

    /** Fails this share of requests (0 to 100 percent) with {@code status}. */
    public LoopbackUpstream failing(int percent, int status) {
        if (percent < 0 || percent > 100) {
            throw new IllegalArgumentException("percent " + percent + " must be from 0 to 100");
        }
        this.failStatus = status;
        this.failPercent = percent;
        return this;
    }

    /**
     * Answers with a body of {@code bytes} zero bytes instead of its name, with a Content-Length when
     * {@code declared}, otherwise chunked (the size known only as it arrives).
     */
    public LoopbackUpstream answeringBytes(int bytes, boolean declared) {
        this.bodyBytes = bytes;
        this.declaresLength = declared;
        return this;
    }

    /** Adds this header to every answer (a {@code grpc-status}, say); null for none. */
    public LoopbackUpstream answeringHeader(String header, String value) {
        this.extraValue = value;
        this.extraHeader = header;
        return this;
    }

    /** Delays every answer by this long (0 for none). */
    public LoopbackUpstream delaying(long millis) {
        this.delayMillis = millis;
        return this;
    }

    /** Healthy again: no failures, no delay, its name as the body, port open. */
    public LoopbackUpstream healthy() throws IOException {
        bodyBytes = -1;
        declaresLength = true;
        failPercent = 0;
        delayMillis = 0;
        accepting();
        return this;
    }

    /** Closes the port: connections are refused until {@link #accepting()}. */
    public synchronized LoopbackUpstream refusing() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
        return this;
    }

    /** Reopens the port after {@link #refusing()}. */
    public synchronized LoopbackUpstream accepting() throws IOException {
        if (server == null) {
            open(port);
        }
        return this;
    }

    @Override
    public synchronized void close() {
        refusing();
        executor.shutdownNow();
    }
}
