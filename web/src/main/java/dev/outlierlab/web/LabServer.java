package dev.outlierlab.web;

import com.sun.net.httpserver.HttpExchange;
import dev.outlierlab.config.InputException;
import dev.outlierlab.httpserver.BoundedHttpServer;
import dev.outlierlab.httpserver.ServerLimits;
import dev.outlierlab.sim.RunCancelledException;
import dev.outlierlab.sim.RunWatcher;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * {@code outlier-lab serve}: the lab's page and JSON API on a {@link BoundedHttpServer} (the JDK's HTTP server
 * API, with request headers read off the worker pool). Binds 127.0.0.1 unless told otherwise; closes at once a
 * connection past {@link Options#clientConnections()} of one client address or {@link #MAX_CONNECTIONS} in
 * all, and one whose request has not arrived within {@link #REQUEST_SECONDS} or whose answer is not taken
 * within {@link #RESPONSE_SECONDS}; handles complete requests on a bounded pool of threads; refuses other
 * sites ({@link RequestGuard}); runs at most a few simulations at once, with at most 64 waiting and a
 * deadline for each ({@link RunQueue}); streams the answer of a run that lasts over 150 ms, so that a run whose
 * client has gone is noticed and stopped ({@link StreamedAnswer}); and refuses oversized or invalid input with a
 * 400 whose {@code {"error": ...}} names the problem, then keeps serving.
 *
 * <pre>
 * GET  /                  the lab (static files from the classpath, uPlot from its WebJar)
 * GET  /api/settings      limits, default scenario, controls, every outlier_detection field
 * POST /api/run           a scenario as JSON -> the run's JSON with series, panic windows and intervals
 * POST /api/compare       a scenario as JSON -> its traffic under envoy, grpc and gateway, side by side
 * POST /api/scenario      a scenario file's text (YAML or JSON) -> {"scenario": canonical JSON}
 * POST /api/hinges        a scenario as JSON -> {"hinges": [...]}, with the other fault pattern's run compared
 * POST /api/istio         {"rule": a DestinationRule's YAML, "cluster", "fields"} -> istiod's translation (IstioLab)
 * </pre>
 */
public final class LabServer implements AutoCloseable {
    /** The address bound when none is given: loopback only. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /**
     * Seconds a client has for its first byte, and then to send its request line, headers and body, before the
     * connection is closed (the proxy's bound too).
     */
    public static final int REQUEST_SECONDS = ServerLimits.DEFAULT_REQUEST_SECONDS;
    /** Open connections at most; more are closed at once, before any byte is read. */
    public static final int MAX_CONNECTIONS = ServerLimits.DEFAULT_MAX_CONNECTIONS;
    /** Open connections of one client address at most by default; more are closed at once. */
    public static final int DEFAULT_CLIENT_CONNECTIONS = ServerLimits.DEFAULT_CLIENT_CONNECTIONS;
    /**
     * Request-handling threads by default: one for each connection whose request body or answer a slow client
     * may hold (its headers hold none), so probes still pass.
     */
    public static final int DEFAULT_THREADS = 512;
    /** Seconds a client has to take the answer before the connection is closed. */
    public static final int RESPONSE_SECONDS = ServerLimits.DEFAULT_RESPONSE_SECONDS;

    /**
     * How to serve.
     *
     * @param threads     request-handling threads (the pool never grows past this): enough for every waiting
     *                    and running simulation, slow clients until their timeout, and the page's own requests
     * @param queue       simulations waiting for a turn before new ones get a 503
     * @param simulations simulations running at once; others wait for one to finish
     * @param runDeadline longest a simulation request may take, waiting included, before it is stopped
     * @param clientConnections open connections of one client address at most
     */
    public record Options(
            String host,
            int port,
            int threads,
            int queue,
            int simulations,
            SimulationLimits limits,
            Duration runDeadline,
            int clientConnections) {
        /** As given, with {@link #DEFAULT_CLIENT_CONNECTIONS} connections per client address. */
        public Options(
                String host,
                int port,
                int threads,
                int queue,
                int simulations,
                SimulationLimits limits,
                Duration runDeadline) {
            this(host, port, threads, queue, simulations, limits, runDeadline, DEFAULT_CLIENT_CONNECTIONS);
        }

        /** These options with {@code n} connections per client address. */
        public Options withClientConnections(int n) {
            return new Options(host, port, threads, queue, simulations, limits, runDeadline, n);
        }

        /**
         * The given address and port, {@link #DEFAULT_THREADS} threads (idle ones end after 30 s), 64 waiting, 2
         * simulations at once, 20 s each, the default limits.
         */
        public static Options of(String host, int port) {
            return new Options(host, port, DEFAULT_THREADS, 64, 2, SimulationLimits.DEFAULT, Duration.ofSeconds(20));
        }
    }

    private final BoundedHttpServer server;
    private final ThreadPoolExecutor pool;
    private final LabApi api;
    private final StaticFiles files = new StaticFiles();
    private final RunQueue runs;
    private final RequestGuard guard;

    private LabServer(BoundedHttpServer server, ThreadPoolExecutor pool, Options options) {
        this.server = server;
        this.pool = pool;
        this.api = new LabApi(options.limits());
        this.runs = new RunQueue(
                options.simulations(), options.queue(), options.runDeadline().toNanos());
        this.tunes = new RunQueue(1, 2, TUNE_DEADLINE_NANOS);
        this.guard = new RequestGuard(options.host(), server.getAddress().getPort());
    }

    /** Binds and starts serving; {@code port} 0 picks a free port. Throws {@link BindException} if taken. */
    public static LabServer start(Options options) throws IOException {
        BoundedHttpServer server = BoundedHttpServer.create(
                new InetSocketAddress(options.host(), options.port()),
                256,
                ServerLimits.defaults().withClientConnections(options.clientConnections()));
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                options.threads(),
                options.threads(),
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(options.queue()),
                daemonThreads(),
                new ThreadPoolExecutor.AbortPolicy());
        pool.allowCoreThreadTimeOut(true);
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

    /** Connections open now. */
    int openConnections() {
        return server.openConnections();
    }

    /** Connections closed as soon as they were accepted, their client's share or the total being open. */
    long refusedConnections() {
        return server.refusedConnections();
    }

    /** Runs stopped because their client had closed the connection, since the server started. */
    long runsLeftByClient() {
        return runs.leftByClient();
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
            guard.checkHostAndOrigin(ex);
            String path = ex.getRequestURI().getPath();
            if (path.startsWith("/api/")) {
                handleApi(ex, path);
            } else {
                handleFile(ex, path);
            }
        } catch (Exchanges.Answered e) {
            // the answer is out and the body drained: only the connection is left to close
        } catch (ApiException e) {
            Exchanges.sendJson(ex, e.status(), LabApi.error(e.getMessage()));
        } catch (InputException e) {
            Exchanges.sendJson(ex, 400, LabApi.error(e.getMessage()));
        } catch (IOException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            logInternalError(ex, e);
            Exchanges.sendJson(ex, 500, LabApi.error("internal error: " + e));
        } finally {
            ex.close();
        }
    }

    private static void logInternalError(HttpExchange ex, Throwable e) {
        System.err.println("outlier-lab serve: internal error on " + ex.getRequestMethod() + " " + ex.getRequestURI());
        e.printStackTrace();
    }

    private void handleApi(HttpExchange ex, String path) throws IOException {
        switch (path) {
            case "/api/settings" -> {
                Exchanges.requireMethod(ex, "GET");
                Exchanges.sendJson(ex, 200, api.settings());
            }
            case "/api/run" -> handleRun(ex, api::run);
            case "/api/hinges" -> handleRun(ex, api::hinges);
            case "/api/compare" -> handleRun(ex, api::compare);
            case "/api/tune" -> handleTune(ex);
            case "/api/istio" -> {
                Exchanges.requireMethod(ex, "POST");
                guard.checkContentType(ex, false);
                Exchanges.sendJson(ex, 200, IstioLab.answer(readBody(ex)));
            }
            case "/api/scenario" -> {
                Exchanges.requireMethod(ex, "POST");
                guard.checkContentType(ex, true);
                String body = readBody(ex);
                Exchanges.sendJson(ex, 200, api.scenario(body, Exchanges.sourceName(ex.getRequestURI())));
            }
            default ->
                throw new ApiException(
                        404,
                        "no such API: " + path
                                + " (the API is GET /api/settings, POST /api/run, POST /api/compare, POST /api/hinges, "
                                + "POST /api/scenario, POST /api/tune, POST /api/istio)");
        }
    }

    /** A tune is many runs: one at a time, for at most two minutes (waiting included). */
    static final long TUNE_DEADLINE_NANOS = 120_000_000_000L;

    private final RunQueue tunes;

    /** {@code POST /api/tune}: the Tune view's search ({@link TuneApi}), one at a time, streamed like a long run. */
    private void handleTune(HttpExchange ex) throws IOException {
        // parsed before it is queued: a malformed request is a 400 at once, never a turn in the queue
        handleQueued(ex, tunes, TuneApi::request, TuneApi::tune);
    }

    /**
     * {@code POST /api/run} and {@code POST /api/hinges}: validated and admitted like any request; a run that outlasts
     * {@link StreamedAnswer#HEARTBEAT_NANOS} is streamed, so its client's going is noticed and an error after
     * that is the body of its 200.
     */
    private void handleRun(HttpExchange ex, BiFunction<String, RunWatcher, byte[]> work) throws IOException {
        handleQueued(ex, runs, body -> {}, work);
    }

    /**
     * A POST whose body passes {@code check} before it is queued, whose work is admitted by {@code queue} and
     * streamed once it outlasts the heartbeat.
     */
    private void handleQueued(
            HttpExchange ex, RunQueue queue, Consumer<String> check, BiFunction<String, RunWatcher, byte[]> work)
            throws IOException {
        Exchanges.requireMethod(ex, "POST");
        guard.checkContentType(ex, false);
        String body = readBody(ex);
        check.accept(body);
        long start = System.nanoTime();
        StreamedAnswer answer = new StreamedAnswer(ex, start);
        byte[] result;
        try {
            result = queue.run(answer, watcher -> work.apply(body, watcher));
        } catch (RunCancelledException e) {
            return; // the client has gone: nobody to answer
        } catch (RuntimeException e) {
            if (!answer.streaming()) {
                throw e;
            }
            boolean input = e instanceof ApiException || e instanceof InputException;
            if (!input) {
                logInternalError(ex, e);
            }
            answer.finish(LabApi.error(input ? e.getMessage() : "internal error: " + e));
            return;
        }
        if (answer.streaming()) {
            answer.finish(result);
            return;
        }
        ex.getResponseHeaders()
                .set("Server-Timing", String.format(Locale.ROOT, "run;dur=%.1f", (System.nanoTime() - start) / 1e6));
        Exchanges.sendJson(ex, 200, result);
    }

    /** The body as UTF-8, up to the lab's limit ({@link Exchanges#readBody}). */
    private String readBody(HttpExchange ex) throws IOException {
        return Exchanges.readBody(ex, api.limits().maxBodyBytes());
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
            Exchanges.send(ex, 404, "text/plain; charset=utf-8", body);
            return;
        }
        ex.getResponseHeaders().set("Cache-Control", "no-cache");
        Exchanges.send(ex, 200, file.contentType(), file.body());
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
