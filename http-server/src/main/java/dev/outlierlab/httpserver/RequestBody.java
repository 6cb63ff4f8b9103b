package dev.outlierlab.httpserver;

import java.io.IOException;
import java.io.InputStream;

/**
 * A request's body as its head frames it: {@code Content-Length} bytes, chunks (RFC 9112 section 7.1, sizes and
 * trailers bounded), or nothing. It ends at the body's end, never reading into the next request.
 */
final class RequestBody extends InputStream {
    private static final int MAX_LINE = 4096;
    private final ConnectionInput in;
    private final boolean chunked;
    private long left;
    private boolean done;
    private boolean closed;

    RequestBody(ConnectionInput in, long length, boolean chunked) {
        this.in = in;
        this.chunked = chunked;
        this.left = chunked ? 0 : length;
        this.done = !chunked && length == 0;
    }

    /** Whether the whole body has been read (so the connection can carry a next request). */
    boolean finished() {
        return done;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("the request body is closed");
        }
        if (done) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        if (left == 0 && chunked && !nextChunk()) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n < 0) {
            throw new IOException("the connection ended inside the request body");
        }
        left -= n;
        if (left == 0 && !chunked) {
            done = true;
        }
        if (left == 0 && chunked) {
            String crlf = in.readLine(2);
            if (!crlf.isEmpty()) {
                throw new IOException("a chunk without its CRLF");
            }
        }
        return n;
    }

    /** Reads the next chunk's size; false (and the trailers read) at the last chunk. */
    private boolean nextChunk() throws IOException {
        String line = in.readLine(MAX_LINE);
        int semi = line.indexOf(';');
        String size = (semi >= 0 ? line.substring(0, semi) : line).trim();
        long n;
        try {
            if (size.isEmpty() || size.length() > 15) {
                throw new NumberFormatException(size);
            }
            n = Long.parseLong(size, 16);
        } catch (NumberFormatException e) {
            throw new IOException("a bad chunk size");
        }
        if (n == 0) {
            for (int trailers = 0; !in.readLine(MAX_LINE).isEmpty(); trailers++) {
                if (trailers > RequestHead.MAX_HEADERS) {
                    throw new IOException("too many trailers");
                }
            }
            done = true;
            return false;
        }
        left = n;
        return true;
    }

    /** Reads and drops what is left, up to {@code max} bytes; true if the body ended within them. */
    boolean drain(long max) {
        byte[] skip = new byte[8192];
        long total = 0;
        try {
            boolean wasClosed = closed;
            closed = false;
            try {
                int n;
                while (total <= max && (n = read(skip, 0, skip.length)) >= 0) {
                    total += n;
                }
            } finally {
                closed = wasClosed;
            }
            return done;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
    }
}
