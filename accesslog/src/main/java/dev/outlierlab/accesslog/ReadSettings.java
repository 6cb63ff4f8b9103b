package dev.outlierlab.accesslog;

import java.util.Set;

/**
 * How access logs are read.
 *
 * @param reorderWindowNanos lines may end up to this long before a line above them (several workers write one
 *                           log); a line later than that is a bad line
 * @param cluster only lines of this upstream cluster (null: every cluster, each replayed on its own)
 * @param instancePerFile each input is one proxy instance with its own detector (else one instance, or the
 *                        instance field's)
 * @param hosts the cluster's hosts when they are known (a line of another host is a bad line), or null to take
 *              them from the log
 */
public record ReadSettings(
        LogFormat format,
        long reorderWindowNanos,
        String cluster,
        boolean instancePerFile,
        Set<String> hosts,
        int maxLineBytes,
        int maxNames) {
    /** Default reorder window: Envoy flushes its access-log buffer every second by default. */
    public static final long DEFAULT_REORDER_WINDOW_NANOS = 2_000_000_000L;
    /** At most this many distinct host, cluster and instance names. */
    public static final int DEFAULT_MAX_NAMES = 100_000;

    public static ReadSettings of(LogFormat format) {
        return new ReadSettings(
                format,
                DEFAULT_REORDER_WINDOW_NANOS,
                null,
                false,
                null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES,
                DEFAULT_MAX_NAMES);
    }
}
