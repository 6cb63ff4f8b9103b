package dev.outlierlab.flink;

/**
 * What the live replay hands its client: a decision (one JSON line, as it is made), a bad line, or, at the end of a
 * bounded read, one detector's count of outcomes. A Flink POJO.
 */
public final class LiveNote {
    public static final int DECISION = 0;
    public static final int BAD = 1;
    public static final int DETECTOR = 2;

    public int kind;
    public String text;
    public long outcomes;

    public LiveNote() {}

    static LiveNote of(int kind, String text, long outcomes) {
        LiveNote n = new LiveNote();
        n.kind = kind;
        n.text = text;
        n.outcomes = outcomes;
        return n;
    }
}
