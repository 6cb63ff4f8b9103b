package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads the user's files, turning I/O failures into one clear message. */
final class InputFiles {
    /** Files larger than this are refused: no real scenario or configuration is this big. */
    static final long MAX_CONFIG_BYTES = 8L * 1024 * 1024;

    private InputFiles() {
    }

    /** The whole file as text (scenarios and configurations). */
    static String readText(Path path) {
        try {
            requireFile(path);
            if (Files.size(path) > MAX_CONFIG_BYTES) {
                throw new InputException(path + ": the file is larger than 8 MiB");
            }
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw explain(path, e);
        }
    }

    /** A reader for streaming (traces, of any length). */
    static BufferedReader open(Path path) {
        try {
            requireFile(path);
            return Files.newBufferedReader(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw explain(path, e);
        }
    }

    /** Writes an output file whole: to a temporary file beside it, then moved over it, so no partial file is left. */
    static void writeText(Path path, String text) {
        Path target = path.toAbsolutePath();
        Path temp = null;
        try {
            if (Files.isDirectory(target)) {
                throw new InputException(path + ": is a directory, expected a file to write");
            }
            temp = Files.createTempFile(target.getParent(), ".outlier-lab-", ".tmp");
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            Files.move(temp, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            try {
                if (temp != null) {
                    Files.deleteIfExists(temp);
                }
            } catch (IOException ignored) {
                // the message below is the one that matters
            }
            throw new InputException(path + ": cannot be written (" + (e instanceof NoSuchFileException
                    ? "no such directory" : e.getMessage()) + ")");
        }
    }

    private static void requireFile(Path path) {
        if (Files.isDirectory(path)) {
            throw new InputException(path + ": is a directory, expected a file");
        }
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
        return new InputException(path + ": cannot be read (" + e.getMessage() + ")");
    }
}
