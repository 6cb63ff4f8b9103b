package dev.outlierlab.httpserver;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.util.IO;

/**
 * The lab's share of connections and time on Jetty's connector: an {@link SelectorManager.AcceptListener} (called
 * on the acceptor thread, in the order connections are accepted, before any byte is read), a
 * {@link Connection.Listener} (each connection opened and closed) and a sweep every {@link #TICK_MILLIS}:
 * <ul>
 * <li>a connection past {@link ServerLimits#clientConnections()} of its client address is closed as soon as it
 * is opened, before any byte is read ({@link #refused()});</li>
 * <li>at {@link ServerLimits#maxConnections()} in all, a new connection closes the one that has waited longest
 * for its request (its first byte, the rest of its request, or its next request; {@link #evicted()}), so slow
 * clients spread over many addresses cannot keep a newcomer out; if every open connection is being handled,
 * the new one is closed instead. Jetty's own {@code ConnectionLimit} stops accepting at the total, which would
 * let such clients keep everyone out;</li>
 * <li>a connection that sends no byte within {@link ServerLimits#requestNanos()} of opening, or whose request
 * (head and body) has not arrived within that time of its first byte, is closed; so is one idle between two
 * requests for {@link ServerLimits#idleNanos()}, the oldest idle ones past {@link ServerLimits#maxIdle()}, and
 * one whose answer has not been taken within {@link ServerLimits#responseNanos()} of its status line.</li>
 * </ul>
 * Jetty reads request heads on its selector without blocking, so these connections hold no thread while they
 * wait; the guard only decides when they are closed.
 */
final class ConnectionGuard implements Connection.Listener, SelectorManager.AcceptListener {
    static final long TICK_MILLIS = 100;

    /** What the guard knows of one open connection; written by the acceptor, the handler and the sweep. */
    static final class Tracked {
        final SelectableChannel channel;
        final InetAddress client;
        volatile Connection connection;
        volatile boolean handling;
        volatile boolean servedOne;
        volatile boolean bodyExpected;
        volatile boolean bodyDone;
        volatile long waitingSince;
        volatile long bytesAtWait;
        volatile long arrivingSince;
        volatile long answerSince;

        Tracked(SelectableChannel channel, InetAddress client, long now) {
            this.channel = channel;
            this.client = client;
            this.waitingSince = now;
        }

        long bytesIn() {
            Connection c = connection;
            return c == null ? 0 : c.getBytesIn();
        }

        void close() {
            Connection c = connection;
            if (c != null) {
                c.getEndPoint().close();
            } else {
                IO.close(channel);
            }
        }
    }

    private final ServerLimits limits;
    private final Map<SelectableChannel, Tracked> open = new ConcurrentHashMap<>();
    private final Map<Connection, Tracked> byConnection = new ConcurrentHashMap<>();
    private final Map<InetAddress, AtomicInteger> perClient = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();

    ConnectionGuard(ServerLimits limits) {
        this.limits = limits;
    }

    long refused() {
        return refused.get();
    }

    long evicted() {
        return evicted.get();
    }

    int open() {
        return open.size();
    }

    Tracked tracked(Connection c) {
        return c == null ? null : byConnection.get(c);
    }

    /**
     * On the acceptor thread, in the order connections were accepted and before Jetty makes anything of them:
     * the client's share and the total decide whether the connection is kept.
     */
    @Override
    public void onAccepting(SelectableChannel channel) {
        long now = System.nanoTime();
        InetAddress client = clientOf(channel);
        Tracked victim = null;
        synchronized (this) {
            AtomicInteger mine = perClient.computeIfAbsent(client, k -> new AtomicInteger());
            if (mine.get() >= limits.clientConnections()) {
                refused.incrementAndGet();
                IO.close(channel);
                return;
            }
            if (open.size() >= limits.maxConnections()) {
                victim = open.values().stream()
                        .filter(t -> !t.handling)
                        .min(Comparator.comparingLong(t -> t.waitingSince))
                        .orElse(null);
                if (victim == null) {
                    refused.incrementAndGet();
                    IO.close(channel);
                    return;
                }
                forget(victim);
                evicted.incrementAndGet();
            }
            mine.incrementAndGet();
            open.put(channel, new Tracked(channel, client, now));
        }
        if (victim != null) {
            victim.close();
        }
    }

    @Override
    public void onAcceptFailed(SelectableChannel channel, Throwable cause) {
        synchronized (this) {
            Tracked t = open.get(channel);
            if (t != null) {
                forget(t);
            }
        }
    }

    @Override
    public void onOpened(Connection c) {
        Tracked t = c.getEndPoint().getTransport() instanceof SelectableChannel ch ? open.get(ch) : null;
        if (t == null) {
            c.getEndPoint().close(); // closed to make room meanwhile
            return;
        }
        t.connection = c;
        byConnection.put(c, t);
        if (!open.containsKey(t.channel)) {
            byConnection.remove(c);
            c.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection c) {
        synchronized (this) {
            Tracked t = byConnection.remove(c);
            if (t != null) {
                forget(t);
            }
        }
    }

    /** Drops {@code t} from the counts (once); its connection is closed by the caller or already closed. */
    private void forget(Tracked t) {
        if (open.remove(t.channel, t)) {
            Connection c = t.connection;
            if (c != null) {
                byConnection.remove(c, t);
            }
            AtomicInteger mine = perClient.get(t.client);
            if (mine != null && mine.decrementAndGet() <= 0) {
                perClient.remove(t.client, mine);
            }
        }
    }

    /** A complete head has reached the handler. */
    void requestStarted(Tracked t, boolean bodyExpected) {
        long now = System.nanoTime();
        if (t.arrivingSince == 0) {
            t.arrivingSince = now;
        }
        t.bodyExpected = bodyExpected;
        t.bodyDone = !bodyExpected;
        t.answerSince = 0;
        t.handling = true;
    }

    /** The exchange has ended; the connection waits for its next request (or is being closed). */
    void requestFinished(Tracked t) {
        t.handling = false;
        t.servedOne = true;
        t.answerSince = 0;
        t.arrivingSince = 0;
        t.bytesAtWait = t.bytesIn();
        t.waitingSince = System.nanoTime();
    }

    /** Closes what is late; called every {@link #TICK_MILLIS} by the server's sweeper. */
    void sweep() {
        long now = System.nanoTime();
        List<Tracked> late = new ArrayList<>();
        List<Tracked> idle = new ArrayList<>();
        for (Tracked t : open.values()) {
            if (t.connection == null) {
                continue;
            }
            if (t.handling) {
                long answer = t.answerSince;
                if (answer != 0 && now - answer > limits.responseNanos()) {
                    late.add(t);
                } else if (!t.bodyDone && t.arrivingSince != 0 && now - t.arrivingSince > limits.requestNanos()) {
                    late.add(t);
                }
                continue;
            }
            if (t.bytesIn() > t.bytesAtWait) {
                if (t.arrivingSince == 0) {
                    t.arrivingSince = now;
                } else if (now - t.arrivingSince > limits.requestNanos()) {
                    late.add(t);
                }
                continue;
            }
            long allowed = t.servedOne ? limits.idleNanos() : limits.requestNanos();
            if (now - t.waitingSince > allowed) {
                late.add(t);
            } else if (t.servedOne) {
                idle.add(t);
            }
        }
        if (idle.size() > limits.maxIdle()) {
            idle.sort(Comparator.comparingLong(t -> t.waitingSince));
            late.addAll(idle.subList(0, idle.size() - limits.maxIdle()));
        }
        for (Tracked t : late) {
            t.close();
        }
    }

    private static InetAddress clientOf(SelectableChannel channel) {
        try {
            if (channel instanceof SocketChannel sc
                    && sc.getRemoteAddress() instanceof InetSocketAddress inet
                    && inet.getAddress() != null) {
                return inet.getAddress();
            }
        } catch (IOException gone) {
            // counted under loopback; the connection fails at its first read
        }
        return InetAddress.getLoopbackAddress();
    }
}
