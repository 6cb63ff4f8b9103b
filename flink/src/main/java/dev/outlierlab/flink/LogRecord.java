package dev.outlierlab.flink;

/**
 * One line of the logs as the job moves it (a Flink POJO): an outcome that reached a host's detector, keyed by its
 * detector ({@link #group}: cluster and proxy instance), or, once per input at its end, what the read of that
 * input counted and skipped ({@link #tally}, the bad lines' side output).
 */
public class LogRecord {
    /** The detector: cluster, a NUL, proxy instance. Null for a tally. */
    public String group;
    public String cluster;
    public String instance;
    public String host;
    public long endEpochNanos;
    public int code;
    /** The {@link dev.outlierlab.accesslog.Outcome}'s ordinal. */
    public int outcome;
    /** The input's number, in the order the logs were given (directories and globs expanded in name order). */
    public int input;
    public long line;
    /** A tally: the input's {@link dev.outlierlab.accesslog.BadLines.Counts}, serialised; null for an outcome. */
    public byte[] tally;

    public LogRecord() {
    }

    static String key(String cluster, String instance) {
        return cluster + '\u0000' + instance;
    }
}
