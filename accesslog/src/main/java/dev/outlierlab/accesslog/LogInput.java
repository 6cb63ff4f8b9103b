package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * One access-log input: a file (plain or gzip, recognised by its magic bytes) or standard input. Each input is
 * read once by the scan (format detection reads a file's first lines again; standard input's are kept).
 *
 * @param name how messages name it ({@code -} for standard input)
 * @param path the file, or null for {@code stream}
 */
public record LogInput(String name, Path path, InputStream stream) {
    public LogInput(String name, Path path) {
        this(name, path, null);
    }

    /** The input named {@code arg}: {@code -} is standard input. */
    public static LogInput of(String arg, InputStream stdin) {
        if ("-".equals(arg)) {
            return new LogInput("-", null, new BufferedInputStream(stdin, 1 << 20));
        }
        Path p = Path.of(arg);
        if (Files.isDirectory(p)) {
            throw new InputException(arg + ": is a directory, expected an access-log file");
        }
        if (!Files.isReadable(p)) {
            throw new InputException(arg + (Files.exists(p) ? ": permission denied" : ": no such file"));
        }
        if (!Files.isRegularFile(p)) {
            // a FIFO, <(zcat ...) or a device: read once, as standard input is, since it cannot be reopened
            try {
                // FileInputStream, not Files.newInputStream: the latter's available() asks a pipe for its position
                return new LogInput(arg, null, new BufferedInputStream(new FileInputStream(p.toFile()), 1 << 20));
            } catch (IOException e) {
                throw new InputException(arg + ": cannot be read (" + e.getMessage() + ")");
            }
        }
        return new LogInput(arg, p);
    }

    /** Size on disk (compressed for gzip), for progress; 0 for standard input. */
    public long size() {
        try {
            return path == null ? 0 : Files.size(path);
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * Opens the input, decompressing gzip; {@code counter} receives the bytes read from disk. For standard input,
     * {@code peek} opens it without consuming what it reads (format detection), marking up to 1 MiB.
     */
    public InputStream open(long[] counter, boolean peek) {
        try {
            BufferedInputStream in;
            if (path == null) {
                in = (BufferedInputStream) stream;
                if (peek) {
                    in.mark(1 << 20);
                    return new FilterInputStream(in) {
                        @Override
                        public void close() throws IOException {
                            in.reset();
                        }
                    };
                }
            } else {
                in = new BufferedInputStream(new Counting(Files.newInputStream(path), counter), 65_536);
            }
            in.mark(2);
            int b1 = in.read();
            int b2 = in.read();
            in.reset();
            if (b1 == 0x1f && b2 == 0x8b) {
                return new GZIPInputStream(in, 65_536);
            }
            return in;
        } catch (NoSuchFileException e) {
            throw new InputException(name + ": no such file");
        } catch (AccessDeniedException e) {
            throw new InputException(name + ": permission denied");
        } catch (IOException e) {
            throw new InputException(name + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    /** Opens the input to read it through. */
    public InputStream open(long[] counter) {
        return open(counter, false);
    }

    private static final class Counting extends FilterInputStream {
        private final long[] counter;

        Counting(InputStream in, long[] counter) {
            super(in);
            this.counter = counter;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                counter[0] += n;
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            int c = super.read();
            if (c >= 0) {
                counter[0]++;
            }
            return c;
        }
    }
}
