package dev.outlierlab.flink;

import dev.outlierlab.config.InputException;
import java.util.Locale;

/**
 * The bound of {@code --parallelism}, checked before anything is read or started: on a cluster Flink's own upper
 * bound of a job's parallelism (32,768, its largest number of key groups), on the local MiniCluster of
 * {@code --engine flink} a number of slots one JVM can hold (each slot is a thread with its network buffers; a
 * larger local parallelism only fails for want of buffers, after the logs are read).
 */
enum Parallelism {
    CLUSTER(32_768, "(Flink's bound)"),
    LOCAL(64, "on the local MiniCluster of --engine flink (a cluster takes more: flink run -p N)");

    private final int max;
    private final String why;

    Parallelism(int max, String why) {
        this.max = max;
        this.why = why;
    }

    /** {@code p} (null: the environment's default), or one message naming what is allowed. */
    Integer check(Integer p) {
        if (p != null && (p < 1 || p > max)) {
            throw new InputException(
                    "--parallelism " + p + ": expected 1 to " + String.format(Locale.ROOT, "%,d", max) + " " + why);
        }
        return p;
    }
}
