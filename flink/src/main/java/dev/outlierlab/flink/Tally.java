package dev.outlierlab.flink;

import dev.outlierlab.accesslog.BadLines;
import java.io.Serializable;

/**
 * What the read of one file counted and skipped ({@link BadLines.Counts}), and whether it stopped early, past
 * {@code --max-bad-lines}: the client refuses such a read whatever the other files hold.
 */
record Tally(BadLines.Counts counts, boolean stopped) implements Serializable {}
