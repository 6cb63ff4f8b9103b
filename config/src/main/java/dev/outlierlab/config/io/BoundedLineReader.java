package dev.outlierlab.config.io;

import dev.outlierlab.config.InputException;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads text line by line (or whole) with a limit on the length of one line and, for whole texts, on the
 * total: an endless stream ({@code /dev/zero}, a FIFO fed forever, a file without line breaks) ends with one
 * {@link InputException} naming the source, the line and the limit, never an {@code OutOfMemoryError}. Lines
 * end at {@code \n}, {@code \r\n} or {@code \r}, as {@link BufferedReader#readLine()} has them; a
 * byte-order mark at the very start is dropped. Input must be UTF-8: anything else is an
 * {@link InputException} too. Every reader of a user's file or stream goes through this class.
 */
public final class BoundedLineReader implements Closeable {
    /** Longest line of a scenario, an Envoy or Istio configuration, or a trace, in characters (256 KiB). */
    public static final int MAX_LINE_CHARS = 256 * 1024;

    private static final char BOM = '\uFEFF';

    private final Reader in;
    private final String source;
    private final int maxLineChars;
    private final char[] buffer = new char[8192];
    private int position;
    private int limit;
    private boolean started;
    private boolean pendingCarriageReturn;
    private long lineNumber;

    /** Reads {@code in}, which should decode strictly (see {@link #utf8(InputStream)}). */
    public BoundedLineReader(Reader in, String source, int maxLineChars) {
        this.in = in;
        this.source = source;
        this.maxLineChars = maxLineChars;
    }

    /** A line reader over a stream of UTF-8 bytes with the default line limit. */
    public static BoundedLineReader of(InputStream in, String source) {
        return new BoundedLineReader(utf8(in), source, MAX_LINE_CHARS);
    }

    /** A strict UTF-8 decoder over {@code in}: malformed bytes are an error, never replaced. */
    public static Reader utf8(InputStream in) {
        return new InputStreamReader(
                in,
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT));
    }

    /**
     * The whole text of a stream of UTF-8 bytes, line endings kept as they are, refused once it passes
     * {@code maxChars} characters or one value of a line passes {@link #MAX_LINE_CHARS} ({@link ScalarRun}).
     *
     * @param what how to name the limit in the message, e.g. {@code "8 MiB"}
     */
    public static String readText(InputStream stream, String source, long maxChars, String what) {
        BoundedLineReader r = of(stream, source);
        StringBuilder text = new StringBuilder();
        // the bound is on one scalar, not one line: a minified JSON configuration is one long line of short values
        ScalarRun run = new ScalarRun();
        r.lineNumber = 1;
        int c;
        while ((c = r.read()) >= 0) {
            if (text.length() >= maxChars) {
                throw new InputException(source + ": the file is larger than " + what);
            }
            text.append((char) c);
            if (c == '\n' || c == '\r') {
                if (c == '\n' || r.peek() != '\n') {
                    r.lineNumber++;
                }
                run.accept((char) c);
            } else if (run.accept((char) c) > r.maxLineChars) {
                throw r.tooLong();
            }
        }
        return text.toString();
    }

    /** The next line without its terminator, or null at the end. */
    public String readLine() {
        StringBuilder line = null;
        int c;
        while ((c = read()) >= 0) {
            if (pendingCarriageReturn) {
                pendingCarriageReturn = false;
                if (c == '\n') {
                    continue;
                }
            }
            if (line == null) {
                line = new StringBuilder();
                lineNumber++;
            }
            if (c == '\n') {
                return line.toString();
            }
            if (c == '\r') {
                pendingCarriageReturn = true;
                return line.toString();
            }
            if (line.length() >= maxLineChars) {
                throw tooLong();
            }
            line.append((char) c);
        }
        return line == null ? null : line.toString();
    }

    /** The number of the line {@link #readLine()} returned last (1 for the first). */
    public long lineNumber() {
        return lineNumber;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            // nothing was written, so a failure to release the file changes nothing the user sees
        }
    }

    private InputException tooLong() {
        return new InputException(source + ":" + lineNumber + ": line " + lineNumber + " is longer than "
                + String.format(Locale.ROOT, "%,d", maxLineChars) + " characters, the limit for one line; "
                + "is this the right file?");
    }

    private int peek() {
        if (position == limit && !fill()) {
            return -1;
        }
        return buffer[position];
    }

    private int read() {
        if (position == limit && !fill()) {
            return -1;
        }
        return buffer[position++];
    }

    private boolean fill() {
        try {
            int n;
            do {
                n = in.read(buffer, 0, buffer.length);
            } while (n == 0);
            if (n < 0) {
                return false;
            }
            position = 0;
            limit = n;
            if (!started) {
                started = true;
                if (buffer[0] == BOM) {
                    position = 1;
                    return position < limit || fill();
                }
            }
            return true;
        } catch (CharacterCodingException e) {
            throw new InputException(source + ":" + Math.max(1, lineNumber) + ": not UTF-8 text");
        } catch (IOException e) {
            throw new InputException(source + ": cannot be read (" + e.getMessage() + ")");
        }
    }
}
