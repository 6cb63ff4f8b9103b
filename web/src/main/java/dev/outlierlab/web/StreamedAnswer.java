package dev.outlierlab.web;

import com.sun.net.httpserver.HttpExchange;
import dev.outlierlab.sim.RunCancelledException;
import dev.outlierlab.sim.RunWatcher;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The answer to one {@code POST /api/run} that notices when its client has gone. The JDK's HTTP server gives a
 * handler no sign that a connection closed, and a write to a closed connection is the only one: so once a run
 * has been in the making (waiting included) for {@link #HEARTBEAT_NANOS}, its watcher sends the status
 * ({@code 200}, chunked) and then a single space, flushed to the socket, at most every
 * {@link #HEARTBEAT_NANOS}. A write that fails (the client reset or closed the connection) stops the run with a
 * {@link RunCancelledException}. The run's JSON follows the spaces (JSON allows leading whitespace), and a run
 * stopped after the status was sent ends with {@code {"error": ...}} under that {@code 200}. A run that ends
 * sooner is answered as any other request, with its own status and a {@code Content-Length}.
 *
 * <p>Everything happens on the handler's thread, the one that runs the simulation, so nothing is written to
 * the exchange concurrently.
 */
final class StreamedAnswer implements RunWatcher {
    /** Time from arrival to the first space, and between two spaces. */
    static final long HEARTBEAT_NANOS = 150_000_000L;

    private static final byte[] SPACE = {' '};

    private final HttpExchange exchange;
    private final long arrivalNanos;
    private OutputStream out;
    private long lastWriteNanos;
    private boolean clientGone;

    StreamedAnswer(HttpExchange exchange, long arrivalNanos) {
        this.exchange = exchange;
        this.arrivalNanos = arrivalNanos;
    }

    /** Sends the status or a space when one is due; stops the run if the client has gone. */
    @Override
    public void progress(long done, long total) {
        long now = System.nanoTime();
        if (now - (out == null ? arrivalNanos : lastWriteNanos) < HEARTBEAT_NANOS) {
            return;
        }
        lastWriteNanos = now;
        try {
            if (out == null) {
                Exchanges.jsonHeaders(exchange);
                exchange.sendResponseHeaders(200, 0);
                out = exchange.getResponseBody();
            }
            out.write(SPACE);
            out.flush();
        } catch (IOException e) {
            clientGone = true;
            throw new RunCancelledException("the client closed the connection before the run ended");
        }
    }

    /** Whether the status has been sent, so that only a body may follow. */
    boolean streaming() {
        return out != null;
    }

    /** Whether a write found the connection closed by the client. */
    boolean clientGone() {
        return clientGone;
    }

    /** Ends a streamed answer with {@code body}; a client gone by now is not an error. */
    void finish(byte[] body) {
        try {
            out.write(body);
            out.close();
        } catch (IOException e) {
            clientGone = true;
        }
    }
}
