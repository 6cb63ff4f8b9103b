package dev.outlierlab.accesslog;

import dev.outlierlab.engine.Durations;

/**
 * The fields of one access-log line that replay needs, filled in place by a {@link LogFormat} (one instance is
 * reused for every line, so reading allocates nothing per line). Text fields are ranges of {@link #bytes}.
 */
public final class ParsedLine {
    /**
     * The longest duration a line may give, in milliseconds: the lab's longest duration (ten years,
     * {@code Durations.MAX_NANOS}). A longer one is a bad line: in nanoseconds it would overflow or carry the
     * outcome's time past anything a replay can span.
     */
    static final long MAX_DURATION_MILLIS = Durations.MAX_NANOS / 1_000_000L;

    byte[] bytes;
    long startEpochNanos;
    boolean hasStart;
    long durationNanos;
    int code;
    long flags;
    int hostStart;
    int hostEnd;
    int clusterStart = -1;
    int clusterEnd;
    int instanceStart = -1;
    int instanceEnd;
    int attempts;
    /** Why the line could not be read, when parsing returned false. */
    String error;

    void reset(byte[] b) {
        bytes = b;
        hasStart = false;
        durationNanos = -1;
        code = -1;
        flags = 0;
        hostStart = -1;
        hostEnd = -1;
        clusterStart = -1;
        instanceStart = -1;
        attempts = -1;
        error = null;
    }

    /** Whether a duration field's value in milliseconds is longer than {@link #MAX_DURATION_MILLIS}. */
    static boolean durationTooLong(long millis) {
        return millis > MAX_DURATION_MILLIS;
    }

    /** Fails the line for a duration longer than {@link #MAX_DURATION_MILLIS}, naming the key and the value. */
    boolean failDurationTooLong(String key, String text) {
        return fail(key + " " + text + " is more than " + MAX_DURATION_MILLIS
                + " milliseconds (ten years, the longest duration the lab accepts)");
    }

    boolean fail(String why) {
        error = why;
        return false;
    }

    /** Whether the upstream host is present (not absent, empty or {@code -}). */
    boolean hasHost() {
        int n = hostEnd - hostStart;
        return hostStart >= 0 && n > 0 && !(n == 1 && bytes[hostStart] == '-');
    }

    /** The outcome's time: start plus duration, the moment Envoy finished the stream and wrote the line. */
    long endEpochNanos() {
        return startEpochNanos + Math.max(0, durationNanos);
    }

    public String error() {
        return error;
    }
}
