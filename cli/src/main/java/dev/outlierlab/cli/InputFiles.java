package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.io.BoundedLineReader;
import dev.outlierlab.config.io.TextFiles;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the user's files, turning I/O failures into one clear message. Everything goes through
 * {@link BoundedLineReader}, so a line over the limit, {@code /dev/zero} or an endless FIFO is a message, not
 * an {@code OutOfMemoryError}. {@code -} names standard input.
 */
public final class InputFiles {
    /** Files larger than this are refused: no real scenario or configuration is this big. */
    static final long MAX_CONFIG_BYTES = 8L * 1024 * 1024;
    /** The most a trace from a pipe may hold when it has to be read twice (host names first, then records). */
    static final long MAX_SPOOLED_TRACE_BYTES = 4L * 1024 * 1024 * 1024;
    /** The name that stands for standard input. */
    static final String STDIN = "-";

    private InputFiles() {}

    /** The whole file as text (scenarios and configurations). */
    static String readText(Path path) {
        try (InputStream in = openStream(path)) {
            return BoundedLineReader.readText(in, path.toString(), MAX_CONFIG_BYTES, "8 MiB");
        } catch (IOException e) {
            throw explain(path, e);
        }
    }

    /** A line reader for streaming (traces, of any length). */
    public static BoundedLineReader open(Path path) {
        try {
            return BoundedLineReader.of(openStream(path), path.toString());
        } catch (IOException e) {
            throw explain(path, e);
        }
    }

    /** Whether the file can be read twice: a regular file, not standard input, a pipe or a device. */
    static boolean rereadable(Path path) {
        return !isStdin(path) && Files.isRegularFile(path);
    }

    /**
     * Copies a stream that cannot be read twice (standard input, {@code <(...)}, a FIFO) to a temporary file,
     * deleted when the command ends, so that it is read once and then replayed from the copy.
     */
    static Path spool(Path path) {
        try (BoundedLineReader in = open(path)) {
            Path copy = Files.createTempFile("outlier-lab-trace-", ".jsonl");
            copy.toFile().deleteOnExit();
            try (Writer out =
                    Files.newBufferedWriter(copy, StandardCharsets.UTF_8, StandardOpenOption.TRUNCATE_EXISTING)) {
                long total = 0;
                String line;
                // line by line, so a stream without line breaks (/dev/zero) stops at the line limit
                while ((line = in.readLine()) != null) {
                    total += line.length() + 1;
                    if (total > MAX_SPOOLED_TRACE_BYTES) {
                        out.close();
                        Files.deleteIfExists(copy);
                        throw new InputException(path + ": the trace from a pipe is larger than 4 GiB; write it to a "
                                + "file, or give cluster.hosts so that it is read only once");
                    }
                    out.write(line);
                    out.write('\n');
                }
            }
            return copy;
        } catch (IOException e) {
            throw explain(path, e);
        }
    }

    private static boolean isStdin(Path path) {
        return STDIN.equals(path.toString());
    }

    private static InputStream openStream(Path path) throws IOException {
        if (isStdin(path)) {
            return new FilterInputStream(System.in) {
                @Override
                public void close() {
                    // standard input belongs to the process, not to this reader
                }
            };
        }
        if (Files.isDirectory(path)) {
            throw new InputException(path + ": is a directory, expected a file");
        }
        return Files.newInputStream(path);
    }

    private static InputException explain(Path path, IOException e) {
        if (e instanceof NoSuchFileException) {
            return new InputException(path + ": no such file");
        }
        if (e instanceof AccessDeniedException) {
            return new InputException(path + ": permission denied");
        }
        if (e instanceof CharacterCodingException) {
            return new InputException(path + ": not UTF-8 text");
        }
        // the rest as TextFiles says it: the file system's reason, without the path it repeats
        return TextFiles.explain(path, "", e);
    }
}
