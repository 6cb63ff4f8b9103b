package dev.outlierlab.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether standard error is a terminal, for the progress lines and notes that go there. Java 17's
 * {@link System#console()} answers for standard input and output together, so {@code tune --format json > file}
 * on a terminal looked like no terminal at all and a search of minutes said nothing. On Linux the descriptor's link
 * says where it goes ({@code /proc/self/fd/2} to {@code /dev/pts/N} or {@code /dev/ttyN}); elsewhere the console
 * answers as before.
 */
final class StandardError {
    private static final boolean TERMINAL = detect();

    private StandardError() {}

    static boolean isTerminal() {
        return TERMINAL;
    }

    private static boolean detect() {
        Path fd = Path.of("/proc/self/fd/2");
        if (Files.isSymbolicLink(fd)) {
            try {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            } catch (IOException | SecurityException e) {
                return System.console() != null;
            }
        }
        return System.console() != null;
    }
}
