package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * One access-log input: a file (plain or gzip, recognised by its magic bytes) or standard input, which is first
 * copied to a temporary file because replay reads its inputs twice (once for the hosts and the time span, once
 * to replay).
 *
 * @param name how messages name it ({@code -} for standard input)
 */
public record LogInput(String name, Path path) {
    /** The input named {@code arg}: {@code -} is standard input, copied to a temporary file now. */
    public static LogInput of(String arg, InputStream stdin) {
        if (!"-".equals(arg)) {
            Path p = Path.of(arg);
            if (Files.isDirectory(p)) {
                throw new InputException(arg + ": is a directory, expected an access-log file");
            }
            if (!Files.isReadable(p)) {
                throw new InputException(arg + (Files.exists(p) ? ": permission denied" : ": no such file"));
            }
            return new LogInput(arg, p);
        }
        try {
            Path tmp = Files.createTempFile("outlier-lab-stdin", ".log");
            tmp.toFile().deleteOnExit();
            Files.copy(stdin, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return new LogInput("-", tmp);
        } catch (IOException e) {
            throw new InputException("standard input: cannot be copied to a temporary file (" + e.getMessage() + ")");
        }
    }

    /** Size on disk (compressed for gzip), for progress. */
    public long size() {
        try {
            return Files.size(path);
        } catch (IOException e) {
            return 0;
        }
    }

    /** Opens the input, decompressing gzip; {@code counter} receives the bytes read from disk. */
    public InputStream open(long[] counter) {
        try {
            InputStream raw = new Counting(Files.newInputStream(path), counter);
            BufferedInputStream in = new BufferedInputStream(raw, 65_536);
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
