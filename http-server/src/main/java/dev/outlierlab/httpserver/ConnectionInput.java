package dev.outlierlab.httpserver;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;

/**
 * The request side of a connection while its request is handled: first the bytes already read past the
 * headers, then blocking reads of the socket, each waiting no later than the request's deadline. Bytes read
 * past the request stay in the connection's buffer for the next one.
 */
final class ConnectionInput extends InputStream {
    private final Connection c;
    private final InputStream socket;

    ConnectionInput(Connection c) throws IOException {
        this.c = c;
        this.socket = c.channel.socket().getInputStream();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (c.pending() == 0) {
            // past the deadline, bytes that have arrived are still read (a handler may start late), none awaited
            long left = c.requestDeadlineNanos - System.nanoTime();
            c.start = 0;
            c.end = 0;
            c.channel.socket().setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000L)));
            int n;
            try {
                n = socket.read(c.buffer, 0, c.buffer.length);
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException("the request was not read in full within its time");
            }
            if (n <= 0) {
                return -1;
            }
            c.end = n;
        }
        int n = Math.min(len, c.pending());
        System.arraycopy(c.buffer, c.start, b, off, n);
        c.start += n;
        return n;
    }

    /** One line of at most {@code max} bytes without its CRLF (or LF), for chunk sizes and trailers. */
    String readLine(int max) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            int ch = read();
            if (ch < 0) {
                throw new IOException("the request body ended inside a chunk header");
            }
            if (ch == '\n') {
                int l = sb.length();
                return l > 0 && sb.charAt(l - 1) == '\r' ? sb.substring(0, l - 1) : sb.toString();
            }
            if (sb.length() >= max) {
                throw new IOException("a chunk header over " + max + " bytes");
            }
            sb.append((char) ch);
        }
    }
}
