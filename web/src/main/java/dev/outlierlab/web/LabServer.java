package dev.outlierlab.web;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code outlier-lab serve}: the lab's page and JSON API on the JDK's HTTP server. Binds 127.0.0.1 unless
 * told otherwise; handles requests on a fixed, small pool of threads with a bounded queue; runs at most a
 * few simulations at once; and refuses oversized or invalid input with a 400 whose {@code {"error": ...}}
 * names the problem, then keeps serving.
 *
 * <pre>
 * GET  /                  the lab (static files from the classpath, uPlot from its WebJar)
 * GET  /api/settings      limits, default scenario, controls, every outlier_detection field
 * POST /api/run           a scenario as JSON -> the run's JSON with series, panic windows and intervals
 * POST /api/scenario      a scenario file's text (YAML or JSON) -> {"scenario": canonical JSON}
 * </pre>
 */
public final class LabServer implements AutoCloseable {
    /** The address bound when none is given: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    private static final String CSP = "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            + "object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

    /**
     * How to serve.
     *
     * @param threads     request-handling threads (the pool never grows past this)
     * @param queue       requests waiting for a thread before new ones are refused
     * @param simulations simulations running at once; others wait for one to finish
     */
    public record Options(String host, int port, int threads, int queue, int simulations, SimulationLimits limits) {
        /** The given address and port, 4 threads, 64 waiting, 2 simulations at once, the default limits. */
        public static Options of(String host, int port) {
            return new Options(host, port, 4, 64, 2, SimulationLimits.DEFAULT);
        }
    }

    private final HttpServer server;
    private final ThreadPoolExecutor pool;
    private final LabApi api;
    private final StaticFiles files = new StaticFiles();
    private final Semaphore simulations;

    private LabServer(HttpServer server, ThreadPoolExecutor pool, Options options) {
        this.server = server;
        this.pool = pool;
        this.api = new LabApi(options.limits());
        this.simulations = new Semaphore(options.simulations());
    }

    /** Binds and starts serving; {@code port} 0 picks a free port. Throws {@link java.net.BindException} if taken. */
    public static LabServer start(Options options) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(options.host(), options.port()), 64);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(options.threads(), options.threads(), 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(options.queue()), daemonThreads(), new ThreadPoolExecutor.AbortPolicy());
        LabServer lab = new LabServer(server, pool, options);
        server.createContext("/", lab::handle);
        server.setExecutor(pool);
        server.start();
        return lab;
    }

    /** Starts on 127.0.0.1 at {@code port}. */
    public static LabServer start(int port) throws IOException {
        return start(Options.of(DEFAULT_HOST, port));
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The page's address, e.g. {@code http://127.0.0.1:8080/}. */
    public URI uri() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + a.getPort() + "/");
    }

    ExecutorService executor() {
        return pool;
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            String path = ex.getRequestURI().getPath();
            if (path.startsWith("/api/")) {
                handleApi(ex, path);
            } else {
                handleFile(ex, path);
            }
        } catch (ApiException e) {
            sendJson(ex, e.status(), LabApi.error(e.getMessage()));
        } catch (InputException e) {
            sendJson(ex, 400, LabApi.error(e.getMessage()));
        } catch (IOException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            System.err.println("outlier-lab serve: internal error on " + ex.getRequestMethod() + " " + ex.getRequestURI());
            e.printStackTrace();
            sendJson(ex, 500, LabApi.error("internal error: " + e));
        } finally {
            ex.close();
        }
    }

    private void handleApi(HttpExchange ex, String path) throws IOException {
        switch (path) {
            case "/api/settings" -> {
                requireMethod(ex, "GET");
                sendJson(ex, 200, api.settings());
            }
            case "/api/run" -> {
                requireMethod(ex, "POST");
                String body = readBody(ex);
                long start = System.nanoTime();
                byte[] result = simulate(() -> api.run(body));
                ex.getResponseHeaders().set("Server-Timing", String.format(java.util.Locale.ROOT, "run;dur=%.1f",
                        (System.nanoTime() - start) / 1e6));
                sendJson(ex, 200, result);
            }
            case "/api/scenario" -> {
                requireMethod(ex, "POST");
                String body = readBody(ex);
                sendJson(ex, 200, api.scenario(body, sourceName(ex.getRequestURI())));
            }
            default -> throw new ApiException(404, "no such API: " + path
                    + " (the API is GET /api/settings, POST /api/run, POST /api/scenario)");
        }
    }

    private byte[] simulate(java.util.function.Supplier<byte[]> run) {
        boolean acquired;
        try {
            acquired = simulations.tryAcquire(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "the server is shutting down");
        }
        if (!acquired) {
            throw new ApiException(503, "the lab is busy running other simulations; try again in a moment");
        }
        try {
            return run.get();
        } finally {
            simulations.release();
        }
    }

    private static void requireMethod(HttpExchange ex, String method) {
        if (!ex.getRequestMethod().equals(method)) {
            ex.getResponseHeaders().set("Allow", method);
            throw new ApiException(405, ex.getRequestMethod() + " is not allowed on " + ex.getRequestURI().getPath()
                    + "; use " + method);
        }
    }

    /** The body as UTF-8, refused with a 400 once it passes the limit (the rest is drained, then the connection closed). */
    private String readBody(HttpExchange ex) throws IOException {
        int limit = api.limits().maxBodyBytes();
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        InputStream in = ex.getRequestBody();
        byte[] body = in.readNBytes(limit + 1);
        if (body.length > limit) {
            in.skip(16L * limit);
            ex.getResponseHeaders().set("Connection", "close");
            String size = declared != null ? " (" + declared + " bytes)" : "";
            throw ApiException.badRequest("the request body" + size + " is over the lab's limit of " + (limit / 1024)
                    + " KiB (" + limit + " bytes); a scenario is far smaller, so check what was sent");
        }
        return new String(body, StandardCharsets.UTF_8);
    }

    /** The uploaded file's name from {@code ?name=}, for messages; letters, digits and {@code ._-} only. */
    private static String sourceName(URI uri) {
        String query = uri.getQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("name=")) {
                    String name = part.substring(5).replaceAll("[^A-Za-z0-9._-]", "_");
                    if (!name.isEmpty()) {
                        return name.length() > 80 ? name.substring(0, 80) : name;
                    }
                }
            }
        }
        return "scenario";
    }

    private void handleFile(HttpExchange ex, String path) throws IOException {
        String method = ex.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            ex.getResponseHeaders().set("Allow", "GET, HEAD");
            throw new ApiException(405, method + " is not allowed on " + path);
        }
        StaticFiles.File file = files.find(path);
        if (file == null) {
            byte[] body = ("Not found: " + path + "\n").getBytes(StandardCharsets.UTF_8);
            send(ex, 404, "text/plain; charset=utf-8", body);
            return;
        }
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        send(ex, 200, file.contentType(), file.body());
    }

    private static void sendJson(HttpExchange ex, int status, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Cache-Control", "no-store");
        send(ex, status, "application/json; charset=utf-8", body);
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        Headers h = ex.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("Referrer-Policy", "no-referrer");
        h.set("Content-Security-Policy", CSP);
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "outlier-lab-http-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
