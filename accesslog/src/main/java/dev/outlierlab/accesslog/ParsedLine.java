package dev.outlierlab.accesslog;

/**
 * The fields of one access-log line that replay needs, filled in place by a {@link LogFormat} (one instance is
 * reused for every line, so reading allocates nothing per line). Text fields are ranges of {@link #bytes}.
 */
public final class ParsedLine {
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
