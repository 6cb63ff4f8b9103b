package dev.outlierlab.httpserver;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * An HTTP/1.1 server with the JDK's {@link HttpServer} API whose handlers see only complete request heads: one
 * selector thread ({@link ConnectionLoop}) accepts connections, closes at once those past
 * {@link ServerLimits#clientConnections()} of one client address, makes room at
 * {@link ServerLimits#maxConnections()} in all by closing the connection that has waited longest for its
 * request (or, if every one is being handled, closes the new one), reads each request's line and headers without blocking and within {@link ServerLimits#requestNanos()}
 * of their first byte, and only then hands the request to the executor ({@link BoundedExchange}). So slow
 * clients that send headers byte by byte, or nothing, hold no worker, and one client cannot take every
 * connection. It stands in for {@code sun.net.httpserver.ServerImpl}, whose dispatcher hands a connection to
 * the executor at its first byte and reads the headers there, and which has no share per client. One context,
 * {@code "/"}, serves every path; filters and authenticators are not supported.
 */
public final class BoundedHttpServer extends HttpServer {
    private final ServerSocketChannel listener;
    private final ServerLimits limits;
    private final ConnectionLoop loop;
    private final Thread thread;
    private final RootContext context = new RootContext();
    private volatile Executor executor = Runnable::run;

    private BoundedHttpServer(ServerSocketChannel listener, ServerLimits limits) throws IOException {
        this.listener = listener;
        this.limits = limits;
        this.loop = new ConnectionLoop(this, listener, limits);
        this.thread = new Thread(loop, "outlier-lab-http-connections-" + listener.socket().getLocalPort());
        thread.setDaemon(true);
    }

    /** Binds {@code address} (port 0 for any free one) with a backlog of {@code backlog}; not started yet. */
    public static BoundedHttpServer create(InetSocketAddress address, int backlog, ServerLimits limits)
            throws IOException {
        ServerSocketChannel listener = ServerSocketChannel.open();
        try {
            listener.bind(address, backlog);
            return new BoundedHttpServer(listener, limits);
        } catch (IOException | RuntimeException e) {
            listener.close();
            throw e;
        }
    }

    public ServerLimits limits() {
        return limits;
    }

    /** Connections closed at once since the start because their client, or the server, had its share open. */
    public long refusedConnections() {
        return loop.refused();
    }

    /**
     * Connections closed, with the server at its total, to make room for a new one: each time the one that had
     * waited longest for its request.
     */
    public long evictedConnections() {
        return loop.evicted();
    }

    /** Connections open now. */
    public int openConnections() {
        return loop.open();
    }

    ConnectionLoop loop() {
        return loop;
    }

    HttpContext context() {
        return context;
    }

    @Override
    public void bind(InetSocketAddress addr, int backlog) {
        throw new IllegalStateException("the server is bound when created");
    }

    @Override
    public void start() {
        thread.start();
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
        loop.stop();
        try {
            listener.close();
        } catch (IOException ignored) {
            // the port is released either way
        }
        try {
            thread.join(1000L + delay * 1000L);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
        return (InetSocketAddress) listener.socket().getLocalSocketAddress();
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
