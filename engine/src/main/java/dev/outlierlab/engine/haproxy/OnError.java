package dev.outlierlab.engine.haproxy;

/**
 * What {@code on-error} does when {@code error-limit} consecutive errors are seen ({@code __health_adjust} in
 * {@code src/check.c}): every mode pulls the next active check forward to {@code fastinter}; {@code fail-check}
 * also counts one failed check; {@code sudden-death} first lowers a healthy server to one failed check above
 * DOWN ({@code health = rise + 1}) and then counts one; {@code mark-down} sets {@code health = rise} and counts
 * one, which takes the server DOWN at once.
 */
public enum OnError {
    FASTINTER("fastinter"),
    FAIL_CHECK("fail-check"),
    SUDDEN_DEATH("sudden-death"),
    MARK_DOWN("mark-down");

    private final String word;

    OnError(String word) {
        this.word = word;
    }

    public String word() {
        return word;
    }

    /** The mode for a configuration word, or null. */
    public static OnError of(String word) {
        for (OnError e : values()) {
            if (e.word.equals(word)) {
                return e;
            }
        }
        return null;
    }
}
