package dev.outlierlab.httpserver;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The selector thread of a {@link BoundedHttpServer}, the part of the JDK's {@code ServerImpl.Dispatcher} that
 * this server does differently: it accepts connections and closes at once one past its client address's share;
 * at the total it closes the connection that has waited longest for its request to make room (or the new one,
 * if every connection is being handled); it reads each request's line and headers without blocking, so a client that sends them
 * byte by byte holds a connection but no worker; it closes a connection whose first byte, whole head, next
 * request (idle) or answer is late; and it hands a complete head to the executor. Only then does a worker see
 * the connection.
 */
final class ConnectionLoop implements Runnable {
    private static final long TICK_MILLIS = 100;
    private final BoundedHttpServer server;
    private final ServerSocketChannel listener;
    private final Selector selector;
    private final ServerLimits limits;
    private final Map<InetAddress, AtomicInteger> perClient = new ConcurrentHashMap<>();
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    private final Set<Connection> handled = ConcurrentHashMap.newKeySet();
    private final Queue<Connection> returning = new ConcurrentLinkedQueue<>();
    private int idle;
    private volatile boolean running = true;

    ConnectionLoop(BoundedHttpServer server, ServerSocketChannel listener, ServerLimits limits) throws IOException {
        this.server = server;
        this.listener = listener;
        this.limits = limits;
        this.selector = Selector.open();
        listener.configureBlocking(false);
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    /** Connections closed at once because their client, or the server, had as many open as allowed. */
    long refused() {
        return refused.get();
    }

    /** Connections closed, at the total, to make room for a new one: the one waiting longest for its request. */
    long evicted() {
        return evicted.get();
    }

    /** Connections open now. */
    int open() {
        return open.get();
    }

    @Override
    public void run() {
        List<Pending> ready = new ArrayList<>();
        try {
            while (running) {
                selector.select(TICK_MILLIS);
                long now = System.nanoTime();
                for (Connection c; (c = returning.poll()) != null;) {
                    register(c, now, ready);
                }
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    try {
                        if (!key.isValid()) {
                            continue;
                        }
                        if (key.isAcceptable()) {
                            acceptAll(now);
                        } else if (key.isReadable()) {
                            read((Connection) key.attachment(), key, now, ready);
                        }
                    } catch (java.nio.channels.CancelledKeyException gone) {
                        // closed by a worker or a deadline meanwhile
                    }
                }
                expire(now);
                if (!ready.isEmpty()) {
                    selector.selectNow(); // deregisters the cancelled keys, so the channels may block
                    for (Pending p : ready) {
                        dispatch(p);
                    }
                    ready.clear();
                }
            }
        } catch (IOException | RuntimeException e) {
            if (running) {
                System.err.println("outlier-lab: the HTTP server's connection loop stopped: " + e);
            }
        } finally {
            closeAll();
        }
    }

    /** A complete head, to be handed to a worker once its key is deregistered. */
    private record Pending(Connection connection, RequestHead head) {
    }

    private void acceptAll(long now) {
        for (int accepted = 0; accepted < 1024; accepted++) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (IOException e) {
                return; // out of file descriptors, or the client reset first: tried again at the next select
            }
            if (ch == null) {
                return;
            }
            InetAddress client;
            try {
                client = ((InetSocketAddress) ch.getRemoteAddress()).getAddress();
            } catch (IOException gone) {
                closeQuietly(ch);
                continue;
            }
            AtomicInteger mine = perClient.computeIfAbsent(client, k -> new AtomicInteger());
            if (mine.get() < limits.clientConnections() && open.get() >= limits.maxConnections()) {
                evictLongestWaiting();
            }
            if (open.get() >= limits.maxConnections() || mine.get() >= limits.clientConnections()) {
                refused.incrementAndGet();
                if (mine.get() == 0) {
                    perClient.remove(client, mine);
                }
                closeQuietly(ch);
                continue;
            }
            open.incrementAndGet();
            mine.incrementAndGet();
            Connection c = new Connection(ch, client, () -> release(client, mine));
            try {
                ch.configureBlocking(false);
                ch.socket().setTcpNoDelay(true);
                c.deadlineNanos = now + limits.requestNanos();
                c.waitingSinceNanos = now;
                ch.register(selector, SelectionKey.OP_READ, c);
            } catch (IOException e) {
                c.close();
            }
        }
    }

    /**
     * At the total, makes room for a new connection by closing the one that has waited longest for its request
     * (its first byte, the rest of its head, or its next request after an answer), if any: a client whose
     * request is being handled keeps its connection, and slow clients spread over many addresses cannot keep
     * newcomers out, as each new connection closes the oldest of theirs.
     */
    private void evictLongestWaiting() {
        SelectionKey oldest = null;
        long since = 0;
        for (SelectionKey key : selector.keys()) {
            if (key.isValid() && key.attachment() instanceof Connection c
                    && (oldest == null || c.waitingSinceNanos - since < 0)) {
                oldest = key;
                since = c.waitingSinceNanos;
            }
        }
        if (oldest != null) {
            evicted.incrementAndGet();
            drop((Connection) oldest.attachment(), oldest);
        }
    }

    private static void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // closing is all there is to do
        }
    }

    private void release(InetAddress client, AtomicInteger mine) {
        open.decrementAndGet();
        if (mine.decrementAndGet() <= 0) {
            perClient.remove(client, mine);
        }
    }

    private void read(Connection c, SelectionKey key, long now, List<Pending> ready) {
        int n;
        try {
            c.makeRoom(1024);
            n = c.channel.read(ByteBuffer.wrap(c.buffer, c.end, c.buffer.length - c.end));
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            drop(c, key);
            return;
        }
        c.end += n;
        consider(c, key, now, ready, n);
    }

    /** After {@code fresh} new bytes: the first byte starts the request's time; a complete head goes to a worker. */
    private void consider(Connection c, SelectionKey key, long now, List<Pending> ready, int fresh) {
        if (c.pending() == 0) {
            return;
        }
        if (!c.started) {
            c.started = true;
            c.deadlineNanos = now + limits.requestNanos();
            c.requestDeadlineNanos = c.deadlineNanos;
            if (c.idle) {
                c.idle = false;
                idle--;
            }
        }
        int endOfHead = RequestHead.end(c.buffer, c.start, c.end, fresh);
        if (endOfHead < 0) {
            if (c.pending() > limits.maxHeaderBytes()) {
                refuse(c, key, 431, "the request line and headers are over " + limits.maxHeaderBytes() + " bytes");
            }
            return;
        }
        if (endOfHead - c.start > limits.maxHeaderBytes()) {
            refuse(c, key, 431, "the request line and headers are over " + limits.maxHeaderBytes() + " bytes");
            return;
        }
        RequestHead head;
        try {
            head = RequestHead.parse(c.buffer, c.start, endOfHead);
        } catch (RequestHead.BadRequest e) {
            refuse(c, key, e.status, e.getMessage());
            return;
        }
        c.start = endOfHead;
        key.cancel();
        ready.add(new Pending(c, head));
    }

    private void dispatch(Pending p) {
        Connection c = p.connection();
        BoundedExchange exchange;
        try {
            c.channel.configureBlocking(true);
            exchange = new BoundedExchange(server, c, p.head());
        } catch (IOException e) {
            c.close();
            return;
        }
        handled.add(c);
        try {
            server.getExecutor().execute(() -> exchange.run(server.context().getHandler()));
        } catch (RejectedExecutionException busy) {
            handled.remove(c);
            ShortAnswer.sendAndClose(c, 503, "the server is busy; try again");
        }
    }

    /** Called by a worker when an exchange ends: the connection waits for its next request, or is closed. */
    void finished(Connection c, boolean reusable) {
        handled.remove(c);
        if (!reusable || !running) {
            c.close();
            return;
        }
        try {
            c.channel.configureBlocking(false);
        } catch (IOException e) {
            c.close();
            return;
        }
        returning.add(c);
        selector.wakeup();
    }

    private void register(Connection c, long now, List<Pending> ready) {
        c.started = false;
        c.waitingSinceNanos = now;
        if (c.pending() == 0) {
            if (idle >= limits.maxIdle()) {
                c.close();
                return;
            }
            c.idle = true;
            idle++;
            c.deadlineNanos = now + limits.idleNanos();
        }
        try {
            SelectionKey key = c.channel.register(selector, SelectionKey.OP_READ, c);
            consider(c, key, now, ready, c.pending());
        } catch (IOException e) {
            drop(c, null);
        }
    }

    /** Closes connections whose awaited bytes or answer are late. */
    private void expire(long now) {
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Connection c && key.isValid() && now - c.deadlineNanos > 0) {
                drop(c, key);
            }
        }
        for (Connection c : handled) {
            if (now - c.answerDeadlineNanos > 0) {
                handled.remove(c);
                c.close();
            }
        }
    }

    private void drop(Connection c, SelectionKey key) {
        if (key != null) {
            key.cancel();
        }
        if (c.idle) {
            c.idle = false;
            idle--;
        }
        c.close();
    }

    /** A short answer written without blocking (it fits any socket's buffer), then the connection closed. */
    private void refuse(Connection c, SelectionKey key, int status, String message) {
        if (key != null) {
            key.cancel();
        }
        ShortAnswer.sendAndClose(c, status, message);
    }

    /** Stops the loop; it closes the listener's key and every connection. */
    void stop() {
        running = false;
        selector.wakeup();
    }

    private void closeAll() {
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof Connection c) {
                c.close();
            }
        }
        for (Connection c : handled) {
            c.close();
        }
        for (Connection c; (c = returning.poll()) != null;) {
            c.close();
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
