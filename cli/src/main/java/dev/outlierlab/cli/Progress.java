package dev.outlierlab.cli;

import dev.outlierlab.accesslog.LogInput;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Replay's progress on standard error, only when it is a terminal: lines read, lines per second, the share of
 * the input read and the estimated time left (files only: standard input has no known size), redrawn on one
 * line at most once a second. When standard error is not a terminal nothing is printed.
 */
final class Progress {
    private final PrintWriter err;
    private final long totalBytes;
    private final long startNanos = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    private Progress(PrintWriter err, long totalBytes) {
        this.err = err;
        this.totalBytes = totalBytes;
    }

    /** A progress display, or null when standard error is not a terminal. */
    static Progress onTerminal(PrintWriter err, List<LogInput> inputs) {
        if (!StandardError.isTerminal()) {
            return null;
        }
        long total = 0;
        for (LogInput i : inputs) {
            total += i.size();
        }
        return new Progress(err, total);
    }

    /** The callback of the scan: receives the bytes read so far. */
    LongConsumer reading() {
        return bytes -> {
            long now = System.nanoTime();
            if (now - lastDraw < 1_000_000_000L) {
                return;
            }
            lastDraw = now;
            double elapsed = (now - startNanos) / 1e9;
            double done = totalBytes == 0 ? 0 : (double) bytes / totalBytes;
            String left = done <= 0
                    ? ""
                    : String.format(
                            Locale.ROOT, ", %.0f %% read, about %.0f s left", 100 * done, elapsed / done - elapsed);
            err.printf(Locale.ROOT, "\r%.1f MB read, %.1f MB/s%s   ", bytes / 1e6, bytes / 1e6 / elapsed, left);
            err.flush();
            drawn = true;
        };
    }

    void done() {
        if (drawn) {
            err.print("\r" + " ".repeat(70) + "\r");
            err.flush();
        }
    }
}
