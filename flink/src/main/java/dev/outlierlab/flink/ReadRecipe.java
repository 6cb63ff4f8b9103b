package dev.outlierlab.flink;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.cli.LogFormatOptions;
import dev.outlierlab.cli.ReplayCommand;
import java.io.Serializable;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * How the job's workers read the logs, as plain values: the format's recipe and the rest of {@link ReadSettings}
 * ({@code replay}'s reorder window, cluster, instance per file, hosts, bounds), made into the same settings on
 * each worker ({@link #settings}), and where a read stops for its bad lines ({@code --max-bad-lines}: past a
 * count, or once most of its lines are bad), as {@code replay}'s scan stops.
 */
record ReadRecipe(
        LogFormatOptions.Recipe format,
        long reorderWindowNanos,
        String cluster,
        boolean instancePerFile,
        List<String> hosts,
        int maxLineBytes,
        int maxNames,
        long maxBadLines,
        double maxBadLinesPercent)
        implements Serializable {
    static ReadRecipe of(ReplayCommand.FleetRequest r) {
        ReadSettings s = r.settings();
        return new ReadRecipe(
                r.format(),
                s.reorderWindowNanos(),
                s.cluster(),
                s.instancePerFile(),
                s.hosts() == null ? null : List.copyOf(s.hosts()),
                s.maxLineBytes(),
                s.maxNames(),
                r.maxBadLines(),
                r.maxBadLinesPercent());
    }

    /** A counter of one read's bad lines that stops it where {@code --max-bad-lines} does. */
    BadLines badLines() {
        return BadLines.limitedTo(maxBadLines, !Double.isNaN(maxBadLinesPercent));
    }

    /** Whether the reads' counts together pass {@code --max-bad-lines} (as the command counts them). */
    boolean tooManyBad(BadLines all) {
        long limit = Double.isNaN(maxBadLinesPercent)
                ? maxBadLines
                : (long) Math.floor(maxBadLinesPercent / 100.0 * all.lines());
        return all.bad() > limit;
    }

    ReadSettings settings() {
        return new ReadSettings(
                format.compile(),
                reorderWindowNanos,
                cluster,
                instancePerFile,
                hosts == null ? null : new LinkedHashSet<>(hosts),
                maxLineBytes,
                maxNames);
    }
}
