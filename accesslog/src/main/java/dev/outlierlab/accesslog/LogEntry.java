package dev.outlierlab.accesslog;

/**
 * One line that reached a host's detector, as replay uses it: when the stream ended (start time plus duration,
 * in epoch nanoseconds), which cluster and proxy instance logged it, the host, the code and the {@link LineOutcome}.
 * Not a record: a reader that is done with an entry hands it back ({@link MergedLog#recycle}) and the next line
 * is read into it, so that reading a log allocates nothing per line; an entry never handed back stays as it is.
 */
public final class LogEntry {
    private long endEpochNanos;
    private String cluster;
    private String instance;
    private String host;
    private int code;
    private LineOutcome outcome;
    private int input;
    private long line;
    private int hostName;

    LogEntry set(
            long endEpochNanos,
            String cluster,
            String instance,
            String host,
            int code,
            LineOutcome outcome,
            int input,
            long line,
            int hostName) {
        this.endEpochNanos = endEpochNanos;
        this.cluster = cluster;
        this.instance = instance;
        this.host = host;
        this.code = code;
        this.outcome = outcome;
        this.input = input;
        this.line = line;
        this.hostName = hostName;
        return this;
    }

    /** When the stream ended: start time plus duration, in epoch nanoseconds. */
    public long endEpochNanos() {
        return endEpochNanos;
    }

    /** The upstream cluster, or "" when the format does not log it. */
    public String cluster() {
        return cluster;
    }

    /** The proxy instance ({@code --instance-field}, or the file with one instance per file), or "". */
    public String instance() {
        return instance;
    }

    public String host() {
        return host;
    }

    public int code() {
        return code;
    }

    public LineOutcome outcome() {
        return outcome;
    }

    /** The index of the input it came from. */
    public int input() {
        return input;
    }

    /** Its line in that input, from 1. */
    public long line() {
        return line;
    }

    /** The host's number among the names read (the same for the same name, in every input). */
    public int hostName() {
        return hostName;
    }

    @Override
    public String toString() {
        return "LogEntry[endEpochNanos=" + endEpochNanos + ", cluster=" + cluster + ", instance=" + instance
                + ", host=" + host + ", code=" + code + ", outcome=" + outcome + ", input=" + input + ", line=" + line
                + ", hostName=" + hostName + "]";
    }
}
