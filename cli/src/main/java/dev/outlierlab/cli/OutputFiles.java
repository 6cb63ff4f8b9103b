package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the command's output files ({@code --access-log}, {@code --event-log}, {@code --series},
 * {@code --stages}) so that nothing is lost without a word: a regular file (or a new one) is written to a
 * temporary file beside it that replaces it only when everything was written, so a failed command leaves no
 * partial file; anything else that exists (a device such as {@code /dev/stdout} or {@code /dev/full}, a FIFO)
 * is written in place, never replaced. Every write error, the last flush and close included, is one message
 * naming the option and the file. The temporary file ({@code .outlier-lab-PID-N.tmp}) is removed by a shutdown
 * hook on SIGTERM or Ctrl-C, and one left by a process that no longer runs is removed at the next write in its
 * directory. Files are created with the mode the umask gives; a replaced file keeps its mode; a read-only file
 * is refused; a link is followed, so the file it points to is replaced and the link kept.
 */
final class OutputFiles {
    /** What writes the content; may throw {@link UncheckedIOException} from inside callbacks. */
    interface Body<T> {
        T writeTo(Writer out) throws IOException;
    }

    private OutputFiles() {}

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
            try (Writer out = new BufferedWriter(
                    new OutputStreamWriter(
                            Files.newOutputStream(target, StandardOpenOption.WRITE), StandardCharsets.UTF_8),
                    1 << 16)) {
                T result = body.writeTo(out);
                out.flush();
                return result;
            } catch (IOException | UncheckedIOException e) {
                throw failed(path, option, e);
            }
        }
        Path temp = null;
        try {
            target = writableTarget(path, target, option);
            removeStale(target.getParent());
            temp = newTemp(target);
            T result;
            try (Writer out = new BufferedWriter(
                    new OutputStreamWriter(
                            Files.newOutputStream(temp, StandardOpenOption.WRITE), StandardCharsets.UTF_8),
                    1 << 16)) {
                result = body.writeTo(out);
            }
            keepMode(target, temp);
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
                LIVE.remove(temp);
            }
        }
    }

    /** Temporary files being written now: removed by the shutdown hook on SIGTERM or Ctrl-C. */
    private static final Set<Path> LIVE = ConcurrentHashMap.newKeySet();

    private static final AtomicLong COUNTER = new AtomicLong();
    private static final Pattern TEMP = Pattern.compile("\\.outlier-lab-(\\d+)-\\d+\\.tmp");

    static {
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            for (Path p : LIVE) {
                                try {
                                    Files.deleteIfExists(p);
                                } catch (IOException ignored) {
                                    // nothing more can be done while the process ends
                                }
                            }
                        },
                        "outlier-lab-remove-partial-outputs"));
    }

    /**
     * Where the file is written: a link is followed (the file it points to is replaced, the link kept); a
     * dangling link and a file without its owner's write permission are refused, never silently replaced.
     */
    private static Path writableTarget(Path path, Path target, String option) throws IOException {
        if (Files.isSymbolicLink(target)) {
            if (!Files.exists(target)) {
                throw new InputException(option + " " + path + ": is a link to a file that does not exist ("
                        + Files.readSymbolicLink(target) + "); name the file itself");
            }
            target = target.toRealPath();
        }
        if (Files.isRegularFile(target)) {
            boolean ownerMayWrite;
            try {
                ownerMayWrite = Files.getPosixFilePermissions(target).contains(PosixFilePermission.OWNER_WRITE);
            } catch (UnsupportedOperationException notPosix) {
                ownerMayWrite = Files.isWritable(target);
            }
            if (!ownerMayWrite || !Files.isWritable(target)) {
                throw new InputException(option + " " + path + ": the file is read-only; it is not replaced "
                        + "(make it writable, or name another file)");
            }
        }
        return target;
    }

    /**
     * A new temporary file beside {@code target}, created with the mode the umask gives new files (not the
     * 0600 of {@link Files#createTempFile}), named after this process so a later run can tell it is stale.
     */
    private static Path newTemp(Path target) throws IOException {
        long pid = ProcessHandle.current().pid();
        for (int attempt = 0; ; attempt++) {
            Path temp = target.resolveSibling(".outlier-lab-" + pid + "-" + COUNTER.incrementAndGet() + ".tmp");
            try {
                LIVE.add(temp);
                Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)
                        .close();
                return temp;
            } catch (FileAlreadyExistsException taken) {
                LIVE.remove(temp);
                if (attempt > 100) {
                    throw taken;
                }
            }
        }
    }

    /** A replaced file keeps its permissions. */
    private static void keepMode(Path target, Path temp) throws IOException {
        if (Files.isRegularFile(target)) {
            try {
                Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(target));
            } catch (UnsupportedOperationException notPosix) {
                // the file system has no such modes
            }
        }
    }

    /**
     * Removes temporary files left beside outputs by a process that no longer runs (killed with SIGKILL, or a
     * power cut): their names carry the process id.
     */
    static void removeStale(Path dir) {
        if (dir == null) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, ".outlier-lab-*.tmp")) {
            for (Path f : files) {
                Matcher m = TEMP.matcher(f.getFileName().toString());
                if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                    Files.deleteIfExists(f);
                }
            }
        } catch (IOException | NumberFormatException | DirectoryIteratorException e) {
            // not ours to fix: the output is written all the same
        }
    }

    private static InputException failed(Path path, String option, Exception e) {
        Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
        // a FileSystemException's message is only the file's name; its reason says what went wrong
        String why = cause instanceof NoSuchFileException
                ? "no such directory"
                : cause instanceof FileSystemException f
                        ? f.getReason() != null
                                ? f.getReason()
                                : f instanceof AccessDeniedException ? "permission denied" : "a file system error"
                        : cause.getMessage();
        return new InputException(option + " " + path + ": cannot be written (" + why + ")");
    }
}
