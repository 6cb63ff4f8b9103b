package dev.outlierlab.flink;

/**
 * One access-log line of a Kafka topic as the live replay needs it: the outcome of a detector's host, or a bad
 * line (why, where). A Flink POJO (public fields, no-argument constructor).
 */
public final class LiveOutcome {
    public static final int OUTCOME = 0;
    public static final int BAD = 1;

    public int kind;
    /** The detector: cluster and proxy instance ({@link OutcomeChunk#group}). */
    public String group = "";

    public String cluster = "";
    public String instance = "";
    public String host = "";
    public long endEpochNanos;
    public int code;
    public int outcome;
    public int partition;
    public long offset;
    /** Why the line is bad. */
    public String why;

    public LiveOutcome() {}

    static LiveOutcome bad(int partition, long offset, String why) {
        LiveOutcome o = new LiveOutcome();
        o.kind = BAD;
        o.partition = partition;
        o.offset = offset;
        o.why = why;
        return o;
    }
}
