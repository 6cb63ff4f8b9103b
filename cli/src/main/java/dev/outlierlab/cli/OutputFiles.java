package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes the command's output files ({@code --access-log}, {@code --event-log}, {@code --series},
 * {@code --stages}) so that nothing is lost without a word: a regular file (or a new one) is written to a
 * temporary file beside it that replaces it only when everything was written, so a failed command leaves no
 * partial file; anything else that exists (a device such as {@code /dev/stdout} or {@code /dev/full}, a FIFO)
 * is written in place, never replaced. Every write error, the last flush and close included, is one message
 * naming the option and the file.
 */
final class OutputFiles {
    /** What writes the content; may throw {@link UncheckedIOException} from inside callbacks. */
    interface Body<T> {
        T writeTo(Writer out) throws IOException;
    }

    private OutputFiles() {
    }

    static void writeText(Path path, String option, String text) {
        write(path, option, out -> {
            out.write(text);
            return null;
        });
    }

    static <T> T write(Path path, String option, Body<T> body) {
        Path target = path.toAbsolutePath();
        if (Files.isDirectory(target)) {
            throw new InputException(option + " " + path + ": is a directory, expected a file to write");
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            try (Writer out = new BufferedWriter(new OutputStreamWriter(
                    Files.newOutputStream(target, StandardOpenOption.WRITE), StandardCharsets.UTF_8), 1 << 16)) {
                T result = body.writeTo(out);
                out.flush();
                return result;
            } catch (IOException | UncheckedIOException e) {
                throw failed(path, option, e);
            }
        }
        Path temp = null;
        try {
            temp = Files.createTempFile(target.getParent(), ".outlier-lab-", ".tmp");
            T result;
            try (Writer out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8)) {
                result = body.writeTo(out);
            }
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            return result;
        } catch (IOException | UncheckedIOException e) {
            throw failed(path, option, e);
        } finally {
            if (temp != null) {
                try {
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // the message about the write is the one that matters
                }
            }
        }
    }

    private static InputException failed(Path path, String option, Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        String why = cause instanceof NoSuchFileException ? "no such directory" : cause.getMessage();
        return new InputException(option + " " + path + ": cannot be written (" + why + ")");
    }
}
