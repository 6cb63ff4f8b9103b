package dev.outlierlab.engine.proxies;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A backend on 127.0.0.1 that answers by its {@link BackendScript}, and that may refuse connections (not
 * listen) until a time: "refused, recover at T". {@code /health} answers by its own script (HAProxy's active
 * checks). Every request is counted; threads are bounded.
 */
public final class ScriptedBackend implements AutoCloseable {
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(new SplittableRandom().nextInt(12_000));
    private final int port;
    private final BackendScript script;
    private final BackendScript health;
    private final AtomicLong served = new AtomicLong();
    private final AtomicLong healthServed = new AtomicLong();
    private final List<long[]> checks = Collections.synchronizedList(new ArrayList<>());
    private final ExecutorService pool = Executors.newFixedThreadPool(8);
    private volatile long startMillis;
    private volatile long lastCheckMillis;
    private HttpServer server;

    public ScriptedBackend(BackendScript script, BackendScript health) throws IOException {
        this.port = freePort();
        this.script = script;
        this.health = health;
    }

    public ScriptedBackend(BackendScript script) throws IOException {
        this(script, BackendScript.ok());
    }

    /**
     * A port free now on 127.0.0.1, below Linux's ephemeral range (32768 and up) so that no outgoing connection
     * (a proxy's to its backends) takes it before a backend that refuses at first starts listening on it; each port
     * is handed out once per test run.
     */
    public static int freePort() throws IOException {
        for (int i = 0; i < 2000; i++) {
            int port = 20_000 + NEXT_PORT.getAndIncrement() % 12_000;
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return s.getLocalPort();
            } catch (IOException taken) {
                // try the next one
            }
        }
        throw new IOException("no free port from 20000 to 31999 on 127.0.0.1");
    }

    public int port() {
        return port;
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    /** Sets the run's start; answers are scripted by the time since. */
    public void startClock(long millis) {
        startMillis = millis;
    }

    /** Starts listening. */
    public synchronized void listen() throws IOException {
        if (server != null) {
            return;
        }
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        s.setExecutor(pool);
        s.createContext("/", exchange -> {
            if (exchange.getRequestURI().getPath().equals("/warm-up")) {
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
                return;
            }
            boolean isHealth = exchange.getRequestURI().getPath().startsWith("/health");
            long received = epochNanos();
            if (isHealth) {
                lastCheckMillis = System.currentTimeMillis();
            }
            long n = (isHealth ? healthServed : served).getAndIncrement();
            BackendScript.Answer a = (isHealth ? health : script).answer(n, System.currentTimeMillis() - startMillis);
            try {
                if (a.delayMillis() > 0) {
                    Thread.sleep(a.delayMillis());
                }
                byte[] body = ("status " + a.status() + "\n").getBytes(StandardCharsets.US_ASCII);
                if (isHealth) { // recorded before answering: the checker may close as soon as it has the status
                    checks.add(new long[] {epochNanos(), a.status(), received});
                }
                exchange.sendResponseHeaders(a.status(), body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // the proxy gave up (its timeout): nothing to answer
            } finally {
                exchange.close();
            }
        });
        s.start();
        server = s;
    }

    /**
     * Listens and answers one uncounted request, so that the first scripted answer is not slowed by the JDK's
     * start-up (class loading, the first thread); then listens on or refuses as {@code listening} says.
     */
    public void warmUp(boolean listening) throws IOException {
        listen();
        LoadDriver.get(port, "/warm-up");
        if (!listening) {
            refuse();
        }
    }

    /** Stops listening: connections are refused from now. */
    public synchronized void refuse() {
        if (server != null) {
            server.stop(0);
            server = null;
        }
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /**
     * The health checks answered, in order: each when it was answered (epoch nanoseconds), its status, and when its
     * request was received (epoch nanoseconds).
     */
    public List<long[]> checks() {
        synchronized (checks) {
            return new ArrayList<>(checks);
        }
    }

    /** When the last health check arrived (epoch milliseconds), 0 before any. */
    public long lastCheckMillis() {
        return lastCheckMillis;
    }

    /** Requests answered (health checks not counted). */
    public long served() {
        return served.get();
    }

    @Override
    public void close() {
        refuse();
        pool.shutdownNow();
    }
}
