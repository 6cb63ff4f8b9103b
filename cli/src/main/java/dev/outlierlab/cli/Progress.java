package dev.outlierlab.cli;

import dev.outlierlab.accesslog.LogInput;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Replay's progress on standard error, only when it is a terminal: the pass (1 finds the hosts, 2 replays), the
 * share of the input read, megabytes per second and the estimated time left, redrawn on one line at most once a
 * second. When standard error is not a terminal nothing is printed.
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
        if (System.console() == null) {
            return null;
        }
        long total = 0;
        for (LogInput i : inputs) {
            total += i.size();
        }
        return new Progress(err, total);
    }

    /** The callback of one pass: receives the bytes read so far in that pass. */
    LongConsumer pass(int pass) {
        return bytes -> {
            long now = System.nanoTime();
            if (now - lastDraw < 1_000_000_000L) {
                return;
            }
            lastDraw = now;
            double done = totalBytes == 0 ? 0 : ((pass - 1) * totalBytes + bytes) / (2.0 * totalBytes);
            double elapsed = (now - startNanos) / 1e9;
            double left = done <= 0 ? 0 : elapsed / done - elapsed;
            err.printf(Locale.ROOT, "\rpass %d of 2: %5.1f %% read, %.0f MB/s, about %.0f s left   ", pass,
                    100 * done, (pass - 1 + (double) bytes / Math.max(1, totalBytes)) * totalBytes / 1e6 / elapsed, left);
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
