package dev.outlierlab.config.io;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.Wording;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The one way a file the user names is read as text: its bytes counted while they are read (so
 * {@code /dev/zero}, an endless FIFO or a file that grows is refused at the limit, never an
 * {@code OutOfMemoryError}), a directory refused, and every I/O failure one message naming the file and
 * what went wrong, never the file's content. A file name that cannot be a path (a NUL in it) is refused too.
 */
public final class TextFiles {
    /** The most a scenario, settings, suite or configuration file may hold. */
    public static final long MAX_TEXT_BYTES = 8L * 1024 * 1024;

    private TextFiles() {}

    /** {@code name} as a path; a name with a NUL or otherwise impossible is refused, {@code label} first. */
    public static Path path(String name, String label) {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new InputException(label + ": '" + Wording.shortPrefix(name) + "' is not a file name ("
                    + (name.indexOf('\0') >= 0 ? "it has a NUL character" : e.getReason()) + ")");
        }
    }

    /** The whole file as UTF-8 text, at most {@link #MAX_TEXT_BYTES}; {@code label} names it in messages. */
    public static String read(Path path, String label) {
        if (Files.isDirectory(path)) {
            throw new InputException(label + " " + path + ": is a directory, expected a file");
        }
        try (InputStream in = Files.newInputStream(path)) {
            return BoundedLineReader.readText(in, label + " " + path, MAX_TEXT_BYTES, "8 MiB");
        } catch (IOException | UncheckedIOException e) {
            throw explain(path, label, e instanceof UncheckedIOException u ? u.getCause() : (IOException) e);
        }
    }

    /** One message for an I/O failure, without anything the file holds. */
    public static InputException explain(Path path, String label, IOException e) {
        String prefix = label.isEmpty() ? path.toString() : label + " " + path;
        if (e instanceof NoSuchFileException) {
            return new InputException(prefix + ": cannot be read (no such file)");
        }
        if (e instanceof AccessDeniedException) {
            return new InputException(prefix + ": cannot be read (permission denied)");
        }
        if (e instanceof CharacterCodingException) {
            return new InputException(prefix + ": not UTF-8 text");
        }
        // a file system's own message repeats the path; its reason alone says what went wrong
        String why = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        return new InputException(
                prefix + ": cannot be read (" + (why == null ? "an I/O error" : Wording.shortPrefix(why)) + ")");
    }
}
