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

    static String readText(Path path) {
        try {
            if (Files.isDirectory(path)) {
                throw new InputException(path + ": is a directory, expected a file");
            }
            if (Files.size(path) > MAX_CONFIG_BYTES) {
                throw new InputException(path + ": the file is larger than 8 MiB");
            }
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new InputException(path + ": no such file");
        } catch (AccessDeniedException e) {
            throw new InputException(path + ": permission denied");
        } catch (CharacterCodingException e) {
            throw new InputException(path + ": not UTF-8 text");
        } catch (IOException e) {
            throw new InputException(path + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    static BufferedReader open(Path path) {
        try {
            if (Files.isDirectory(path)) {
                throw new InputException(path + ": is a directory, expected a file");
            }
            return Files.newBufferedReader(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new InputException(path + ": no such file");
        } catch (AccessDeniedException e) {
            throw new InputException(path + ": permission denied");
        } catch (IOException e) {
            throw new InputException(path + ": cannot be read (" + e.getMessage() + ")");
        }
    }
}
