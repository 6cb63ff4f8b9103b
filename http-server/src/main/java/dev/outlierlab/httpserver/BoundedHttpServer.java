package dev.outlierlab.httpserver;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.UnresolvedAddressException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpCompliance;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * An HTTP/1.1 server with the JDK's {@link HttpServer} API on Jetty 12: Jetty's connector accepts connections and
 * its parser reads each request's line and headers on the selector, without blocking, and refuses what RFC 9112
 * calls malformed or ambiguous (a bare CR, a space or NUL in a header name, two {@code Host} headers, a chunk
 * size past its bound; {@link ServerErrors}); a handler sees only complete heads, on the executor given with
 * {@link #setExecutor}. On top of Jetty: the lab's {@link ConnectionGuard} (connections per client address and in
 * all, the longest-waiting one closed to make room, the request, idle and answer times), a 400 for two
 * {@code Origin} headers (which Jetty passes on), a 431 past {@link #MAX_HEADERS} headers, and a 503 when the
 * executor refuses work. One context, {@code "/"}, serves every path; filters and authenticators are not
 * supported.
 *
 * <p>Jetty's buffers are not pooled ({@link ByteBufferPool#NON_POOLING}, on the heap): each read and each answer
 * has buffers of its own. With a pool, a refused head (a 431 for a head over the size limit, a 400) could let a
 * released request buffer reach another connection: Jetty 12.1's
 * {@code org.eclipse.jetty.server.internal.HttpConnection.RequestHandler.badMessage} hands the error answer to
 * another thread without marking the connection as handling, so when that answer completes,
 * {@code HttpConnection.HttpStreamOverHTTP1.succeeded()} (or {@code failed}) calls {@code resume()}, which runs
 * {@code onFillable()} a second time while the first {@code onFillable()} may not have returned yet. Both can then
 * read and release the same request buffer ({@code releaseRequestBuffer()}): it goes back to the pool while the
 * second still fills it from the refused connection, and the next connection to take it (a well-formed request
 * on a kept-alive connection) has its bytes overwritten, for example its {@code Host} value, answered
 * {@code 400 Bad HostPort}. That is the reading of Jetty's source that fits the one failure seen (a kept-alive
 * request answered {@code 400 Bad HostPort} right after another connection's 431); the race was not reproduced.
 * Unpooled, such a buffer belongs to no one else once released. Against Jetty's pooled setup that costs about
 * 16 KB more allocated per request and no CPU time per request beyond the noise of a side-by-side run
 * ({@code BufferPoolCost} in the bench module; docs/benchmarks.md).
 */
public final class BoundedHttpServer extends HttpServer {
    /**
     * A system property that, set to {@code true} when a server is created, gives that server Jetty's own buffer
     * setup instead (its default pool, direct buffers), the one the class comment explains the risk of. It exists
     * to measure what the unpooled buffers cost ({@code bench}'s {@code BufferPoolCost}, docs/benchmarks.md); do
     * not set it to serve.
     */
    public static final String POOLED_BUFFERS_PROPERTY = "outlierlab.http.pooledBuffers";

    /** Header fields of one request at most; past it a 431. */
    public static final int MAX_HEADERS = 200;

    static {
        quietLogging();
    }

    private final Server jetty;
    private final ServerConnector connector;
    private final ServerLimits limits;
    private final ConnectionGuard guard;
    private final ServerErrors errors;
    private final RootContext context = new RootContext();
    private final InetSocketAddress address;
    private final ScheduledExecutorService sweeper;
    private volatile Executor executor = Runnable::run;

    private BoundedHttpServer(InetSocketAddress requested, int backlog, ServerLimits limits) throws IOException {
        this.limits = limits;
        this.guard = new ConnectionGuard(limits);
        this.errors = new ServerErrors(limits.maxHeaderBytes());
        QueuedThreadPool threads = new QueuedThreadPool(64, 4, 30_000);
        threads.setDaemon(true);
        threads.setName("outlier-lab-http-" + requested.getPort());
        boolean pooled = Boolean.getBoolean(POOLED_BUFFERS_PROPERTY);
        this.jetty = pooled ? new Server(threads) : new Server(threads, null, ByteBufferPool.NON_POOLING);
        HttpConfiguration config = new HttpConfiguration();
        if (!pooled) {
            // heap buffers: without a pool each read and answer allocates its own, cheaply on the heap
            config.setUseInputDirectByteBuffers(false);
            config.setUseOutputDirectByteBuffers(false);
        }
        config.setHttpCompliance(HttpCompliance.RFC9110);
        config.setRequestHeaderSize(limits.maxHeaderBytes());
        config.setSendServerVersion(false);
        config.setSendXPoweredBy(false);
        config.setSendDateHeader(true);
        this.connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(config));
        connector.setHost(
                requested.getAddress() == null
                        ? requested.getHostString()
                        : requested.getAddress().getHostAddress());
        connector.setPort(requested.getPort());
        connector.setAcceptQueueSize(backlog);
        // a backstop for a read or write blocked past every bound of the guard, which closes such connections first
        connector.setIdleTimeout(
                TimeUnit.NANOSECONDS.toMillis(Math.max(limits.idleNanos(), limits.responseNanos())) + 5_000);
        connector.addBean(guard);
        connector.getSelectorManager().addEventListener(guard);
        jetty.addConnector(connector);
        jetty.setErrorHandler(errors);
        jetty.setHandler(new Dispatch());
        jetty.setStopTimeout(0);
        try {
            connector.open();
        } catch (IOException e) {
            connector.close();
            if (e.getCause() instanceof BindException bind) {
                throw bind;
            }
            throw e;
        }
        this.address = new InetSocketAddress(requested.getAddress(), connector.getLocalPort());
        this.sweeper = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "outlier-lab-http-guard-" + connector.getLocalPort());
            t.setDaemon(true);
            return t;
        });
    }

    /** Binds {@code address} (port 0 for any free one) with a backlog of {@code backlog}; not started yet. */
    public static BoundedHttpServer create(InetSocketAddress address, int backlog, ServerLimits limits)
            throws IOException {
        if (address.isUnresolved()) {
            throw new UnresolvedAddressException();
        }
        return new BoundedHttpServer(address, backlog, limits);
    }

    public ServerLimits limits() {
        return limits;
    }

    /** Connections closed at once since the start because their client, or the server, had its share open. */
    public long refusedConnections() {
        return guard.refused();
    }

    /**
     * Connections closed, with the server at its total, to make room for a new one: each time the one that had
     * waited longest for its request.
     */
    public long evictedConnections() {
        return guard.evicted();
    }

    /** Requests the server refused itself as malformed or ambiguous (a 4xx before any handler saw them). */
    public long malformedRequests() {
        return errors.malformed();
    }

    /** Connections open now. */
    public int openConnections() {
        return guard.open();
    }

    HttpContext context() {
        return context;
    }

    ServerErrors errors() {
        return errors;
    }

    /** Where Jetty takes its buffers from: a buffer released is never handed out again (see the class comment). */
    ByteBufferPool buffers() {
        return jetty.getByteBufferPool();
    }

    @Override
    public void bind(InetSocketAddress addr, int backlog) {
        throw new IllegalStateException("the server is bound when created");
    }

    @Override
    public void start() {
        try {
            jetty.start();
        } catch (Exception e) {
            throw new IllegalStateException("the HTTP server did not start: " + e.getMessage(), e);
        }
        sweeper.scheduleWithFixedDelay(
                guard::sweep, ConnectionGuard.TICK_MILLIS, ConnectionGuard.TICK_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void setExecutor(Executor executor) {
        this.executor = executor == null ? Runnable::run : executor;
    }

    @Override
    public Executor getExecutor() {
        return executor;
    }

    @Override
    public void stop(int delay) {
        sweeper.shutdownNow();
        try {
            jetty.stop();
        } catch (Exception e) {
            connector.close();
        }
    }

    @Override
    public HttpContext createContext(String path, HttpHandler handler) {
        HttpContext c = createContext(path);
        c.setHandler(handler);
        return c;
    }

    @Override
    public HttpContext createContext(String path) {
        if (!"/".equals(path)) {
            throw new IllegalArgumentException("only the context \"/\" is supported, not " + path);
        }
        return context;
    }

    @Override
    public void removeContext(String path) {
        context.setHandler(null);
    }

    @Override
    public void removeContext(HttpContext c) {
        context.setHandler(null);
    }

    @Override
    public InetSocketAddress getAddress() {
        return address;
    }

    /** Hands each complete request to the executor, after the checks Jetty's parser does not make. */
    private final class Dispatch extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String refusal = ambiguity(request);
            if (refusal != null) {
                int status = refusal.startsWith("431") ? 431 : 400;
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
                Response.writeError(request, response, callback, status, refusal.substring(4));
                return true;
            }
            URI uri;
            try {
                String target = request.getHttpURI().getPathQuery();
                uri = URI.create(target == null ? "/" : target);
            } catch (IllegalArgumentException e) {
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
                Response.writeError(request, response, callback, 400, "the request target is not a URI");
                return true;
            }
            ConnectionGuard.Tracked tracked =
                    guard.tracked(request.getConnectionMetaData().getConnection());
            if (tracked != null) {
                guard.requestStarted(
                        tracked,
                        request.getLength() > 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING));
            }
            JettyExchange exchange =
                    new JettyExchange(BoundedHttpServer.this, request, response, callback, uri, guard, tracked);
            try {
                executor.execute(() -> exchange.run(context.getHandler()));
            } catch (RejectedExecutionException busy) {
                if (tracked != null) {
                    guard.requestFinished(tracked);
                }
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
                Response.writeError(request, response, callback, 503, "the server is busy; try again");
            }
            return true;
        }
    }

    /** Why a head Jetty accepted is still refused ("400 ..." or "431 ..."), or null. */
    private static String ambiguity(Request request) {
        int fields = 0;
        int origins = 0;
        for (HttpField f : request.getHeaders()) {
            fields++;
            if (f.getHeader() == HttpHeader.ORIGIN || "origin".equalsIgnoreCase(f.getName())) {
                origins++;
            }
        }
        if (fields > MAX_HEADERS) {
            return "431 " + fields + " header fields, over the server's limit of " + MAX_HEADERS;
        }
        if (origins > 1) {
            return "400 " + origins + " Origin headers: a request has at most one (RFC 6454 section 7.3)";
        }
        return null;
    }

    /**
     * Jetty logs through SLF4J; with no SLF4J provider on the class path, SLF4J would print a warning on the
     * first request. Without one (and unless told otherwise), SLF4J's own no-op provider is chosen quietly.
     */
    private static void quietLogging() {
        try {
            if (System.getProperty("slf4j.provider") == null
                    && ServiceLoader.load(SLF4JServiceProvider.class)
                            .findFirst()
                            .isEmpty()) {
                System.setProperty("slf4j.provider", "org.slf4j.helpers.NOP_FallbackServiceProvider");
                if (System.getProperty("slf4j.internal.verbosity") == null) {
                    System.setProperty("slf4j.internal.verbosity", "WARN");
                }
            }
        } catch (LinkageError | RuntimeException e) {
            // an older SLF4J: it says what it says
        }
    }

    /** The one context; a request before a handler is set is closed unanswered. */
    private final class RootContext extends HttpContext {
        private volatile HttpHandler handler = exchange -> exchange.close();
        private final Map<String, Object> attributes = new HashMap<>();
        private final List<Filter> filters = new ArrayList<>();

        @Override
        public HttpHandler getHandler() {
            return handler;
        }

        @Override
        public void setHandler(HttpHandler h) {
            handler = h == null ? exchange -> exchange.close() : h;
        }

        @Override
        public String getPath() {
            return "/";
        }

        @Override
        public HttpServer getServer() {
            return BoundedHttpServer.this;
        }

        @Override
        public Map<String, Object> getAttributes() {
            return attributes;
        }

        @Override
        public List<Filter> getFilters() {
            return filters;
        }

        @Override
        public Authenticator setAuthenticator(Authenticator auth) {
            throw new IllegalStateException("this server takes no authenticator; it serves without authentication");
        }

        @Override
        public Authenticator getAuthenticator() {
            return null;
        }
    }
}
