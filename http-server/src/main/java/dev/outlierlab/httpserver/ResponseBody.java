package dev.outlierlab.httpserver;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An answer's body as {@code sendResponseHeaders} framed it: none, exactly {@code Content-Length} bytes,
 * chunks (each {@link #flush()} sends what is buffered as a chunk, so a streamed answer reaches the client at
 * once), or raw bytes to the connection's close (HTTP/1.0). The head is buffered with the first bytes of the
 * body. Closing it finishes the framing and, as with the JDK server, the exchange; an answer shorter than it
 * declared is an error and the connection is closed.
 */
final class ResponseBody extends OutputStream {
    enum Framing { NONE, FIXED, CHUNKED, RAW }

    private static final int BUFFER = 16 * 1024;
    private final OutputStream socket;
    private final byte[] buffer = new byte[BUFFER];
    private int used;
    private Framing framing;
    private long left;
    private boolean closed;
    private boolean complete;
    private final Runnable afterClose;

    /** A body written to {@code socket}; {@code afterClose} ends the exchange (closing the body ends it). */
    ResponseBody(OutputStream socket, Runnable afterClose) {
        this.socket = socket;
        this.afterClose = afterClose;
    }

    /** Starts the answer: its head, then a body framed as given ({@code length} for {@link Framing#FIXED}). */
    void start(byte[] head, Framing framing, long length) throws IOException {
        this.framing = framing;
        this.left = length;
        socket.write(head);
        if (framing == Framing.NONE) {
            socket.flush();
        }
    }

    boolean started() {
        return framing != null;
    }

    /** Whether the answer was finished as framed (the connection may carry a next request). */
    boolean complete() {
        return complete;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (framing == null) {
            throw new IOException("sendResponseHeaders has not been called");
        }
        if (closed) {
            throw new IOException("the answer is closed");
        }
        switch (framing) {
            case NONE -> {
                if (len > 0) {
                    throw new IOException("this answer has no body");
                }
            }
            case FIXED -> {
                if (len > left) {
                    throw new IOException("more bytes than the answer's Content-Length");
                }
                left -= len;
                socket.write(b, off, len);
            }
            case RAW -> socket.write(b, off, len);
            case CHUNKED -> {
                while (len > 0) {
                    int n = Math.min(len, buffer.length - used);
                    System.arraycopy(b, off, buffer, used, n);
                    used += n;
                    off += n;
                    len -= n;
                    if (used == buffer.length) {
                        writeChunk();
                    }
                }
            }
        }
    }

    private void writeChunk() throws IOException {
        if (used > 0) {
            socket.write((Integer.toHexString(used) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.write(buffer, 0, used);
            socket.write('\r');
            socket.write('\n');
            used = 0;
        }
    }

    @Override
    public void flush() throws IOException {
        if (framing == Framing.CHUNKED && !closed) {
            writeChunk();
        }
        socket.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed || framing == null) {
            return;
        }
        closed = true;
        try {
            if (framing == Framing.CHUNKED) {
                writeChunk();
                socket.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            socket.flush();
            if (framing == Framing.FIXED && left > 0) {
                throw new IOException("the answer is " + left + " bytes short of its Content-Length");
            }
            complete = framing != Framing.RAW;
        } finally {
            afterClose.run();
        }
    }
}
