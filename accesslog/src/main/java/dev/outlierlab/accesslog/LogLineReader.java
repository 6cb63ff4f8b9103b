package dev.outlierlab.accesslog;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads lines of bytes from a stream with a bound on their length, so that no input can exhaust memory: a line
 * longer than {@code maxLineBytes} is returned as {@link #tooLong()} (its bytes are skipped up to the next newline)
 * and the caller counts it as a bad line. Lines end at {@code \n}; a {@code \r} before it is dropped. The line is
 * {@code buffer()[start(), end())}, valid until the next call to {@link #next()}; nothing is allocated per line.
 * It is not {@code dev.outlierlab.config.io.BoundedLineReader} (every other reader of user files) because an
 * access log needs two things that one does not do: an over-long line is one bad line among millions, not the
 * end of the read, and lines stay bytes, never decoded to strings, which is what lets a replay read over a
 * million lines a second.
 */
public final class LogLineReader implements Closeable {
    /** The default longest line: far beyond any access-log line, far below any memory concern. */
    public static final int DEFAULT_MAX_LINE_BYTES = 64 * 1024;
    /**
     * The most bytes skipped for one over-long line before the input is refused: an over-long line is a bad
     * line, but a stream with no line breaks at all ({@code /dev/zero}, a binary file) would be skipped forever.
     */
    public static final long MAX_SKIPPED_LINE_BYTES = 64L * 1024 * 1024;

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buf;
    private int pos;
    private int limit;
    private boolean eof;
    private int start;
    private int end;
    private long number;
    private boolean tooLong;

    public LogLineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
        this.buf = new byte[maxLineBytes + 65_536];
    }

    /** Advances to the next line; false at the end of the input. */
    public boolean next() throws IOException {
        int scanFrom = pos;
        while (true) {
            int nl = Bytes.indexOfFar(buf, scanFrom, limit, (byte) '\n');
            if (nl >= 0) {
                if (nl - pos > maxLineBytes) {
                    number++;
                    tooLong = true;
                    start = 0;
                    end = 0;
                    pos = nl + 1;
                    return true;
                }
                return line(pos, nl, nl + 1);
            }
            scanFrom = limit;
            if (limit - pos > maxLineBytes) {
                skipRest();
                return true;
            }
            if (eof) {
                if (pos < limit) {
                    return line(pos, limit, limit);
                }
                return false;
            }
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                scanFrom -= pos;
                limit -= pos;
                pos = 0;
            }
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                limit += n;
            }
        }
    }

    private boolean line(int s, int e, int nextPos) {
        number++;
        tooLong = false;
        start = s;
        end = e > s && buf[e - 1] == '\r' ? e - 1 : e;
        pos = nextPos;
        return true;
    }

    private void skipRest() throws IOException {
        number++;
        tooLong = true;
        start = 0;
        end = 0;
        long skipped = limit;
        pos = limit;
        while (!eof) {
            if (skipped > MAX_SKIPPED_LINE_BYTES) {
                throw new IOException("line " + number + " has no line break within " + (MAX_SKIPPED_LINE_BYTES >> 20)
                        + " MiB: not a text log");
            }
            int n = in.read(buf, 0, buf.length);
            if (n < 0) {
                eof = true;
                pos = 0;
                limit = 0;
                return;
            }
            skipped += n;
            for (int i = 0; i < n; i++) {
                if (buf[i] == '\n') {
                    pos = i + 1;
                    limit = n;
                    return;
                }
            }
        }
        pos = 0;
        limit = 0;
    }

    public byte[] buffer() {
        return buf;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    /** The line's number, from 1. */
    public long lineNumber() {
        return number;
    }

    /** Whether the line was longer than the limit (its bytes are not available). */
    public boolean tooLong() {
        return tooLong;
    }

    public int maxLineBytes() {
        return maxLineBytes;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
