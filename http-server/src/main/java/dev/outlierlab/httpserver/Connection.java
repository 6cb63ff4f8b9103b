package dev.outlierlab.httpserver;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One accepted connection: its channel and client address, the bytes read and not yet used (the head being
 * read, or the start of the next request), and its deadlines. While it waits for a request the selector thread
 * owns it; while a request is handled the worker does, and the selector thread only watches its answer
 * deadline. Closing it, from any thread and any number of times, gives its place back to its client's count.
 */
final class Connection {
    final SocketChannel channel;
    final InetAddress client;
    private final Runnable release;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Bytes read and not yet used: {@code buffer[start..end)}. */
    byte[] buffer = new byte[4096];
    int start;
    int end;
    /** Selector thread: when the connection is closed unless the awaited bytes arrive. */
    long deadlineNanos;
    /** Selector thread: since when it has waited for its request (accepted, or its last answer finished). */
    long waitingSinceNanos;
    /** Whether the first byte of the request being read has arrived (its deadline then runs from it). */
    boolean started;
    /** Whether it waits for a next request after an answer (counted against the idle connections kept). */
    boolean idle;
    /** When the request being handled must have been read in full (set at its first byte). */
    volatile long requestDeadlineNanos;
    /** When the answer being written must be finished, or {@link Long#MAX_VALUE} while none is written. */
    volatile long answerDeadlineNanos = Long.MAX_VALUE;

    Connection(SocketChannel channel, InetAddress client, Runnable release) {
        this.channel = channel;
        this.client = client;
        this.release = release;
    }

    int pending() {
        return end - start;
    }

    /** Room for {@code more} bytes after {@code end}, moving what is pending to the front or growing. */
    void makeRoom(int more) {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
        }
        if (buffer.length - end < more) {
            buffer = java.util.Arrays.copyOf(buffer, Math.max(buffer.length * 2, end + more));
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // closing is all that is left to do
            }
            release.run();
        }
    }
}
